"""Which objects stand for a bone's node (io/mapping/bone_nodes.py, bpy-free): the two marks, the armature still
holding the bone, and the look-up by (armature, bone) the export's ``gather_joint_hook`` asks."""

from __future__ import annotations

from testkit import submodule

bn = submodule("io.mapping.bone_nodes")


class _Bones(dict):
    pass


class _Ob(dict):
    """An object with ID properties (``get``), a type and, for an armature, bones."""

    def __init__(self, kind="EMPTY", bones=(), address=1, **props):
        super().__init__(props)
        self.type = kind
        self.data = type("Data", (), {"bones": _Bones.fromkeys(bones)})()
        self.address = address

    def as_pointer(self):
        return self.address


def test_a_stand_in_names_its_armature_and_bone():
    rig = _Ob("ARMATURE", ["Hip", "Arm"], address=7)
    hip = _Ob(**{bn.BONE_KEY: "Hip", bn.ARMATURE_KEY: rig})
    assert bn.stand_in_bone(hip) == (rig, "Hip")
    assert bn.stand_ins([_Ob(), hip, _Ob("MESH")]) == {(7, "Hip"): [hip]}


def test_marks_that_no_longer_hold_are_no_stand_in():
    rig = _Ob("ARMATURE", ["Hip"])
    assert bn.stand_in_bone(_Ob()) is None  # no marks: an ordinary object
    assert bn.stand_in_bone(_Ob(**{bn.BONE_KEY: "Gone", bn.ARMATURE_KEY: rig})) is None  # bone renamed / deleted
    assert bn.stand_in_bone(_Ob(**{bn.BONE_KEY: "Hip", bn.ARMATURE_KEY: _Ob("MESH")})) is None  # not an armature
    assert bn.stand_in_bone(_Ob(**{bn.BONE_KEY: "Hip"})) is None  # armature removed
    assert bn.stand_in_bone(_Ob(**{bn.BONE_KEY: 3, bn.ARMATURE_KEY: rig})) is None  # a script broke the mark
    assert bn.stand_ins([_Ob(**{bn.BONE_KEY: "Gone", bn.ARMATURE_KEY: rig})]) == {}
