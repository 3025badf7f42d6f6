"""Pure-numpy reference evaluator of the glTF physics semantics (no bpy).

Modules: ``quat`` (quaternion/transform kernels), ``limits`` (joint-limit metrics, violations, soft limits),
``drives`` (drive forces, exact 1-DOF integrator, settle preview), ``joint_report`` (the ``metrics`` command).
"""

from .limits import joint_limit_violation, limit_kind, limit_metric, limit_violation, soft_limit_response

__all__ = [
    "joint_limit_violation",
    "limit_kind",
    "limit_metric",
    "limit_violation",
    "soft_limit_response",
]
