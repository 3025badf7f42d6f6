"""The validator: ``document.validate_gltf`` walks a glTF JSON document and returns diagnostics with stable codes
(``codes``) and JSON pointers; ``bodies``, ``joints``, ``shapes`` and ``omi`` check their part, ``context`` and
``common`` hold the walk state and typed-member getters."""
