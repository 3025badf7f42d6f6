"""*Adopt Physics Settings*: the operator and the check after each file load (``adopt``), one object's settings of
the other glTF-physics add-on converted (``adopt_steps``)."""
