"""Reproduction: what Blender has no setting for, rebuilt from helpers so the scene moves as the file says.

The import's last step, only when ``Scene.gltf_physics.import_reproduce`` is on (off: the import is unchanged).
``step`` runs the parts in order; one module per value reproduced:

* ``gravity``: ``gravityFactor`` as the rigid-body world's gravity effector weight, exact when every dynamic body of
  the world shares the factor; mixed factors → the most common one (ties: the one nearest 1), reported as not
  reproducible with the pointers of the bodies that do not get theirs (``mapping.gravity_weight``, also used by the
  panel sync).
* ``inertia``: infinite inertia (``inertiaDiagonal`` 0 on an axis): a GENERIC constraint whose frame is the body's
  inertia frame locks rotation about those axes against one passive, non-colliding anchor (translation stays free).
* ``velocity``: initial ``linearVelocity`` / ``angularVelocity``: a kinematic pre-roll released by a persistent frame
  handler (rules in ``mapping.initial_velocity``); kinematic / infinite-mass bodies with an initial velocity move at
  it for ever (drivers, no release).
* ``mass``: ``centerOfMass``: the body re-originated on a compound helper at the centre; the rotation locks and the
  pre-roll then act on that helper.
* ``filters``: compound children with their own collision filters, split off as bodies FIXED to the compound.
* ``combine``: friction / restitution pre-combined per dynamic–static contact pair (combine modes).
* ``reports``: what stays impossible (distance / cone / soft-with-range joint limits) is reported.
* ``helpers``: what the parts share (helper collection and tag, anchor, codes, the option); ``cleanup``: *Remove
  Reproduction Helpers* (the scene as an import with the option off would have left it).
* Damping: nothing to do here — ``importer.bodies`` already gives every imported body damping 0, option or not.

Helpers live in the child collection ``helpers.HELPERS`` and are tagged ``Object.gltf_physics.joint.role ==
"REPRODUCTION"``, which the exporter drops (export writes the stored glTF values). The panels (``ui/``) call
``cleanup``, ``combine``, ``mass`` and ``velocity`` for edits of reproduced values.
"""
