"""io.passthrough_text: extras / extensions / unknown keys as the JSON text kept on Blender objects, bpy-free."""

from __future__ import annotations

from testkit import fixture, read_json, submodule

text = submodule("io.mapping.passthrough")
model = submodule("io.gltf.model")
parse = submodule("io.gltf.parse")


def test_every_object_of_the_fixture_round_trips_through_its_text():
    doc = parse.parse_gltf(read_json(fixture("import/passthrough.gltf"))).document
    objects = [doc.materials[0], doc.filters[0]]
    for physics in doc.nodes.values():
        objects += [o for o in (physics.motion, physics.collider, physics.trigger) if o is not None]
    objects.append(doc.nodes[0].collider.geometry)
    kept = [o for o in objects if text.dumps(o)]
    assert len(kept) == 7  # motion, collider, geometry, 2 triggers, material, filter (Part's trigger has none)
    for obj in kept:
        blank = type(obj)(**{k: v for k, v in vars(obj).items() if k not in text.FIELDS})
        assert blank != obj
        assert text.restore(blank, text.dumps(obj)) == obj
    for shape in doc.shapes:
        blank = model.Shape(
            type=shape.type,
            params=type(shape.params)(size=shape.params.size)
            if shape.type == "box"
            else type(shape.params)(radius=shape.params.radius),
        )
        assert text.restore_shape(blank, text.shape_dumps(shape)) == shape


def test_nothing_kept_is_empty_text_and_bad_text_changes_nothing():
    motion = model.Motion(mass=2.0)
    assert text.dumps(motion) == "" and text.shape_dumps(model.Shape(type="box", params=model.BoxShape())) == ""
    assert text.restore(motion, "not json") == model.Motion(mass=2.0)
    assert text.restore(motion, "[1, 2]") == model.Motion(mass=2.0)
    assert text.restore(None, '{"extras": 1}') is None


def test_extension_names_skip_extras():
    written = {
        "motion": {"extensions": {"EXT_a": {"extensions": {"EXT_b": {}}}}, "extras": {"extensions": {"NOT_one": 1}}},
        "list": [{"extensions": {"EXT_c": 1}}],
    }
    assert text.extension_names(written) == {"EXT_a", "EXT_b", "EXT_c"}
