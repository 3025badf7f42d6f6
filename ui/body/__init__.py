"""The Body, Collider & Material and Trigger sub-panels and what they edit: ``Object.gltf_physics`` (``properties``),
the panels (``panels_body``), the collision shapes of a body for the mass read-out (``body_shapes``) and the syncs
that keep Blender's simulation in step with an edit (``sync_body``, ``sync_shapes``, ``sync_combine``)."""
