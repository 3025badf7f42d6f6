"""Readers: one function per family (``khr.read_khr``, ``omi.read_omi`` with ``omi_legacy``) that fill a
``PhysicsDocument`` from validated JSON; ``resources`` (materials, filters, joints), ``shapes`` and ``common``
(``ReadContext``, pointers) are shared."""
