"""Typed, diagnosing getters shared by the physics validator modules (the context lives in validate_context).

Every getter reads one member of a JSON object, reports what is wrong with it (missing, wrong JSON type, out of
range, unresolved index) and returns the usable value or ``None``. None of them raises for any JSON input.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterator
from typing import Any

from ...diagnostics import Severity, pointer_join
from ..read.common import FLOAT32_MAX
from .codes import (
    ARRAY_LENGTH_NOT_IN_LIST,
    DUPLICATE_ELEMENTS,
    EMPTY_ENTITY,
    FLOAT32_OVERFLOW,
    INVALID_INDEX,
    TYPE_MISMATCH,
    UNDEFINED_PROPERTY,
    UNEXPECTED_PROPERTY,
    UNRESOLVED_REFERENCE,
    UNSATISFIED_DEPENDENCY,
    VALUE_NOT_IN_LIST,
    VALUE_NOT_IN_RANGE,
    VALUE_NOT_USABLE,
)
from .context import Ctx, is_int, is_number, show, type_name

#: Members every glTF property may carry; child-of-root objects may also carry ``name``.
BASE_MEMBERS = frozenset({"extensions", "extras"})
NAMED_MEMBERS = BASE_MEMBERS | {"name"}


def mismatch(ctx: Ctx, ptr: str, value: object, expected: str) -> None:
    ctx.error(TYPE_MISMATCH, ptr, f"Type mismatch: {type_name(value)} found, {expected} expected.")


def check_members(ctx: Ctx, obj: dict, allowed: Container[str], ptr: str, named: bool = False) -> None:
    """Warn about members the schema does not define (glTF allows them, the validator warns)."""
    base = NAMED_MEMBERS if named else BASE_MEMBERS
    for key in obj:
        if key not in allowed and key not in base:
            ctx.warning(UNEXPECTED_PROPERTY, pointer_join(ptr, key), "Unexpected property.")


def require(ctx: Ctx, obj: dict, key: str, ptr: str) -> bool:
    """Report ``UNDEFINED_PROPERTY`` at the object when ``key`` is missing; True when present."""
    if key in obj:
        return True
    ctx.error(UNDEFINED_PROPERTY, ptr, f"Property '{key}' must be defined.")
    return False


def _member(ctx: Ctx, obj: dict, key: str, ptr: str, kind: type, label: str, required: bool) -> Any:
    """A member that is an instance of ``kind``; reports a missing required member or a type mismatch."""
    if key not in obj:
        if required:
            require(ctx, obj, key, ptr)
        return None
    value = obj[key]
    if not isinstance(value, kind):
        mismatch(ctx, pointer_join(ptr, key), value, label)
        return None
    return value


def get_object(ctx: Ctx, obj: dict, key: str, ptr: str, required: bool = False) -> dict | None:
    """A member that must be a JSON object."""
    return _member(ctx, obj, key, ptr, dict, "object", required)


def get_bool(ctx: Ctx, obj: dict, key: str, ptr: str) -> bool | None:
    """An optional boolean member."""
    return _member(ctx, obj, key, ptr, bool, "boolean", False)


def get_string(ctx: Ctx, obj: dict, key: str, ptr: str, required: bool = False) -> str | None:
    """A string member."""
    return _member(ctx, obj, key, ptr, str, "string", required)


def _array(ctx: Ctx, obj: dict, key: str, ptr: str, required: bool = False) -> list | None:
    """A member that must be a JSON array."""
    return _member(ctx, obj, key, ptr, list, "array", required)


def get_enum(
    ctx: Ctx,
    obj: dict,
    key: str,
    ptr: str,
    allowed: tuple[str, ...],
    required: bool = False,
    unusable: bool = False,
) -> str | None:
    """A string member restricted to ``allowed``; returns None for other values. ``unusable``: no default applies
    (the object cannot be used without a known value): ``VALUE_NOT_USABLE`` (ERROR), else the validator fork's
    ``VALUE_NOT_IN_LIST`` (WARNING)."""
    value = get_string(ctx, obj, key, ptr, required)
    if value is None:
        return None
    if value not in allowed:
        valid = ", ".join(f"'{a}'" for a in allowed)
        ctx.add(
            Severity.ERROR if unusable else Severity.WARNING,
            VALUE_NOT_USABLE if unusable else VALUE_NOT_IN_LIST,
            pointer_join(ptr, key),
            f"Invalid value {show(value)}. Valid values are ({valid}).",
        )
        return None
    return value


def check_number(
    ctx: Ctx,
    value: object,
    ptr: str,
    minimum: float | None = None,
    maximum: float | None = None,
) -> float | None:
    """Validate one number value: JSON type, finiteness and an inclusive range."""
    if not is_number(value):
        mismatch(ctx, ptr, value, "number")
        return None
    try:
        number = float(value)
    except OverflowError:  # a JSON integer too large for a double
        number = math.inf
    if not math.isfinite(number):
        ctx.error(VALUE_NOT_IN_RANGE, ptr, f"Value {show(value)} is not a finite number.")
        return None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        ctx.error(VALUE_NOT_IN_RANGE, ptr, f"Value {show(value)} is out of range.")
        return None
    if abs(number) > FLOAT32_MAX:
        ctx.add(Severity.WARNING, FLOAT32_OVERFLOW, ptr, f"Value {show(value)} does not fit a 32-bit float.")
    return number


def get_number(
    ctx: Ctx,
    obj: dict,
    key: str,
    ptr: str,
    minimum: float | None = None,
    maximum: float | None = None,
    required: bool = False,
) -> float | None:
    """A number member with an inclusive range."""
    if key not in obj:
        if required:
            require(ctx, obj, key, ptr)
        return None
    value = obj[key]
    kind = type(value)
    if (kind is float or (kind is int and -(2**53) < value < 2**53)) and _within(value, minimum, maximum):
        return float(value)  # nothing to report: no pointer built
    return check_number(ctx, value, pointer_join(ptr, key), minimum, maximum)


def _within(value: float | int, minimum: float | None, maximum: float | None) -> bool:
    """True when ``check_number`` reports nothing for ``value`` (NaN fails every comparison)."""
    low = -FLOAT32_MAX if minimum is None else max(minimum, -FLOAT32_MAX)
    high = FLOAT32_MAX if maximum is None else min(maximum, FLOAT32_MAX)
    return low <= value <= high


def get_number_array(
    ctx: Ctx,
    obj: dict,
    key: str,
    ptr: str,
    length: int | None = None,
    minimum: float | None = None,
    min_items: int = 0,
) -> list[float | None] | None:
    """An array of numbers (fixed ``length`` when given); invalid items come back as None."""
    value = _array(ctx, obj, key, ptr)
    if value is None:
        return None
    if (length is None or len(value) == length) and len(value) >= min_items and _plain_numbers(value, minimum):
        return [float(item) for item in value]  # nothing to report: no pointer built
    here = pointer_join(ptr, key)
    if length is not None and len(value) != length:
        ctx.error(ARRAY_LENGTH_NOT_IN_LIST, here, f"Invalid array length {len(value)}. Valid lengths are: ({length}).")
        return None
    if len(value) < min_items:
        ctx.error(EMPTY_ENTITY, here, "Entity cannot be empty.")
        return None
    return [check_number(ctx, item, pointer_join(here, i), minimum) for i, item in enumerate(value)]


def _plain_numbers(items: list, minimum: float | None) -> bool:
    """True when ``check_number`` would report nothing for any item: floats (and small ints) that are finite,
    not below ``minimum`` and within the 32-bit float range."""
    low = -FLOAT32_MAX if minimum is None else max(minimum, -FLOAT32_MAX)
    for item in items:
        kind = type(item)
        if not ((kind is float or (kind is int and -(2**53) < item < 2**53)) and low <= item <= FLOAT32_MAX):
            return False  # NaN fails the comparison too
    return True


def check_index(ctx: Ctx, value: object, ptr: str, count: int, none_value: int | None = None) -> int | None:
    """Validate one glTF id against an array of ``count`` items; ``none_value`` (OMI: -1) means "none"."""
    if not is_int(value):
        mismatch(ctx, ptr, value, "integer")
        return None
    if none_value is not None and value == none_value:
        return None
    if value < 0:
        ctx.error(INVALID_INDEX, ptr, "Index must be a non-negative integer.")
        return None
    if value >= count:
        ctx.error(UNRESOLVED_REFERENCE, ptr, f"Unresolved reference: {show(value)}.")
        return None
    return value


def get_index(
    ctx: Ctx,
    obj: dict,
    key: str,
    ptr: str,
    count: int | None,
    required: bool = False,
    none_value: int | None = None,
) -> int | None:
    """An index member; ``count`` None means only the JSON type and sign are checked."""
    if key not in obj:
        if required:
            require(ctx, obj, key, ptr)
        return None
    limit = count if count is not None else 2**63
    value = obj[key]
    if type(value) is int and 0 <= value < limit and value != none_value:  # valid: no pointer built
        return value
    return check_index(ctx, value, pointer_join(ptr, key), limit, none_value)


def get_index_list(
    ctx: Ctx, obj: dict, key: str, ptr: str, count: int | None, required: bool = False
) -> list[tuple[int, int]] | None:
    """A non-empty, duplicate-free array of indices; returns (position, index) for the valid entries.

    An empty array is reported (``EMPTY_ENTITY``) and returned as None, as the reference validator does.
    """
    value = _array(ctx, obj, key, ptr, required)
    if value is None:
        return None
    here = pointer_join(ptr, key)
    if not value:
        ctx.error(EMPTY_ENTITY, here, "Entity cannot be empty.")
        return None
    seen: set[int] = set()
    result = []
    limit = count if count is not None else 2**63
    for i, item in enumerate(value):
        index = check_index(ctx, item, pointer_join(here, i), limit)
        if index is None:
            continue
        if index in seen:
            ctx.error(DUPLICATE_ELEMENTS, pointer_join(here, i), "Duplicate element.")
            continue
        seen.add(index)
        result.append((i, index))
    return result


def get_object_list(
    ctx: Ctx, obj: dict, key: str, ptr: str, required: bool = False, min_items: int = 1
) -> Iterator[tuple[int, dict, str]] | None:
    """An array of objects; yields (position, object, pointer) for each item that is an object."""
    value = _array(ctx, obj, key, ptr, required)
    if value is None:
        return None
    if len(value) < min_items:
        ctx.error(EMPTY_ENTITY, pointer_join(ptr, key), "Entity cannot be empty.")
    return _objects(ctx, value, ptr, key)


def _objects(ctx: Ctx, items: list, ptr: str, key: str) -> Iterator[tuple[int, dict, str]]:
    """(position, item, pointer) of the objects of ``items``, the array member ``key`` of the object at ``ptr``."""
    for i, item in enumerate(items):
        item_ptr = pointer_join(ptr, key, i)
        if isinstance(item, dict):
            yield i, item, item_ptr
        else:
            mismatch(ctx, item_ptr, item, "object")


def get_string_list(ctx: Ctx, obj: dict, key: str, ptr: str) -> list[str] | None:
    """An array of strings (may be empty)."""
    value = _array(ctx, obj, key, ptr)
    if value is None:
        return None
    here = pointer_join(ptr, key)
    result = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            result.append(item)
        else:
            mismatch(ctx, pointer_join(here, i), item, "string")
    return result


def array_len(obj: dict, key: str) -> int:
    """Length of a root-level array member, 0 when absent or not an array."""
    value = obj.get(key)
    return len(value) if isinstance(value, list) else 0


def get_doc_ref(
    ctx: Ctx,
    obj: dict,
    key: str,
    ptr: str,
    root_name: str,
    array_key: str,
    none_value: int | None = None,
) -> int | None:
    """An index into ``/extensions/<root_name>/<array_key>``.

    When the root extension object is missing, a non-negative index is reported once as ``UNSATISFIED_DEPENDENCY``
    on the referencing object ``ptr`` (the reference validator's pointer).
    """
    if key not in obj:
        return None
    root = ctx.root(root_name)
    if root is None:
        value = obj[key]
        if not is_int(value):
            mismatch(ctx, pointer_join(ptr, key), value, "integer")
        elif value != none_value and value >= 0:
            ctx.error(UNSATISFIED_DEPENDENCY, ptr, f"Dependency failed. '/extensions/{root_name}' must be defined.")
        elif value != none_value:
            ctx.error(INVALID_INDEX, pointer_join(ptr, key), "Index must be a non-negative integer.")
        return None
    return get_index(ctx, obj, key, ptr, array_len(root, array_key), none_value=none_value)
