"""UI translations: a ``{locale: {(context, msgid): text}}`` table for ``bpy.app.translations``.

Registered under this package's name in ``register_module`` and removed in ``unregister_module``. Keys use the
default context ``"*"``; panel labels, operator labels and the fixed panel texts are covered. Enum item names of
``ui/properties.py`` are translated by Blender when drawn with ``layout.prop``; texts built at draw time go through
``pgettext_iface`` (see ``ui/panels.py``). Add a locale by adding a dictionary with the same msgids.
"""

from __future__ import annotations

import bpy

CTX = "*"
CLASSES: tuple = ()
API = bpy.app.translations  # module attribute so tests can wrap it (bpy.app.translations is read-only)

_DE = {
    "glTF Physics": "glTF-Physik",
    "Body": "Körper",
    "Collider & Material": "Kollider & Material",
    "Trigger": "Auslöser",
    "Joint": "Gelenk",
    "Source & Simulation": "Quelle & Simulation",
    "Compute Mass": "Masse berechnen",
    "Reproduction": "Nachbildung",
    "Remove Reproduction Helpers": "Nachbildungshilfen entfernen",
    "Add glTF Joint": "glTF-Gelenk hinzufügen",
    "Make Trigger": "Auslöser erstellen",
    "Validate Scene": "Szene prüfen",
    "Limits": "Grenzen",
    "Drives": "Antriebe",
    "Physics Material": "Physik-Material",
    "Collision Filter": "Kollisionsfilter",
    "Stored for export, not simulated": "Für den Export gespeichert, nicht simuliert",
    "Stored for export, not simulated by Blender:": "Für den Export gespeichert, von Blender nicht simuliert:",
    "Computed from the collider shapes": "Aus den Kollisionsformen berechnet",
    "Settle preview (from rest)": "Einschwingvorschau (aus der Ruhe)",
    "Time to target: {:.4g} s (within {:g} {})": "Zeit bis zum Ziel: {:.4g} s (innerhalb {:g} {})",
    "Overshoot: {:.4g} {} ({:.1f} %)": "Überschwingen: {:.4g} {} ({:.1f} %)",
    "Blender mass: {:.4g} kg": "Blender-Masse: {:.4g} kg",
    "yes": "ja",
    "no": "nein",
}

_FR = {
    "glTF Physics": "Physique glTF",
    "Body": "Corps",
    "Collider & Material": "Collisionneur et matériau",
    "Trigger": "Déclencheur",
    "Joint": "Articulation",
    "Source & Simulation": "Source et simulation",
    "Compute Mass": "Calculer la masse",
    "Reproduction": "Reproduction physique",
    "Remove Reproduction Helpers": "Supprimer les aides de reproduction",
    "Add glTF Joint": "Ajouter une articulation glTF",
    "Make Trigger": "Créer un déclencheur",
    "Validate Scene": "Valider la scène",
    "Limits": "Limites",
    "Drives": "Entraînements",
    "Physics Material": "Matériau physique",
    "Collision Filter": "Filtre de collision",
    "Stored for export, not simulated": "Conservé pour l’export, non simulé",
    "Stored for export, not simulated by Blender:": "Conservé pour l’export, non simulé par Blender :",
    "Computed from the collider shapes": "Calculé à partir des formes de collision",
    "Settle preview (from rest)": "Aperçu de stabilisation (depuis le repos)",
    "Time to target: {:.4g} s (within {:g} {})": "Temps jusqu’à la cible : {:.4g} s (à {:g} {} près)",
    "Overshoot: {:.4g} {} ({:.1f} %)": "Dépassement : {:.4g} {} ({:.1f} %)",
    "Blender mass: {:.4g} kg": "Masse Blender : {:.4g} kg",
    "yes": "oui",
    "no": "non",
}

TRANSLATIONS: dict[str, dict[tuple[str, str], str]] = {
    locale: {(CTX, msgid): text for msgid, text in table.items()} for locale, table in (("de_DE", _DE), ("fr_FR", _FR))
}


def _key() -> str:
    return __package__ or __name__


def register_module() -> None:
    API.register(_key(), TRANSLATIONS)


def unregister_module() -> None:
    API.unregister(_key())
