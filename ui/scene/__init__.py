"""What acts on the whole scene: the import / export options (``scene_properties``) and their place in the glTF
dialogs (``gltf_dialogs``), *Validate Scene*'s checks (``scene_checks``, ``export_check``), *Check Simulation*
(``operators_check``) and *Remove Reproduction Helpers* with the hook that delays pre-rolls for joints made later
(``reproduction``)."""
