"""The Blender import side: ``PhysicsDocument`` → a simulating Blender scene.

``context`` (shared by every step) · ``pipeline`` (the order) · steps: ``world``, ``bodies`` (with ``geometry`` and
``proxies``), ``triggers``, ``filters``, ``joints``. Steps import ``context``, never ``pipeline``.
"""
