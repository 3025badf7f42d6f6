"""Batch conversion (``convert``): one code path behind two doors, ``bin/gltf-physics convert`` and
``blender --background --command gltf_physics convert``.

bpy-free (the driver side): ``plan`` (inputs → jobs: walk, output names, shards, skip-existing), ``pool`` (worker
processes, timeouts, recycling), ``progress`` (bar / per-file lines, summary), ``driver`` (the subcommand, the JSON
report), ``protocol`` (the worker's JSON lines and the ``CONVERT_*`` codes). Blender side: ``bootstrap`` (the script
a worker process starts with), ``worker`` (the loop), ``one_file`` (one file, scene reset, atomic outputs),
``command`` (``bpy.utils.register_cli_command``).
"""
