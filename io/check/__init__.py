"""``check``: simulate a scene headless and measure it with ``sim/`` (CLI ``gltf-physics check``, operator *Check
Simulation*). Blender side: ``sample`` (step and sample), ``job`` (a file or the current scene); bpy-free:
``evaluate`` (the report), ``output`` (summary, JSON, plots), ``driver`` (the subcommand, worker processes)."""
