"""UI translations: a ``{locale: {(context, msgid): text}}`` table for ``bpy.app.translations``.

Registered under this package's name in ``register_module`` and removed in ``unregister_module``. Keys use the
default context ``"*"``; panel labels, operator labels and the fixed panel texts are covered. Enum item names of
``ui/body/properties.py`` are translated by Blender when drawn with ``layout.prop``; texts built at draw time go through
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
    "Check Simulation": "Simulation prüfen",
    "Limits": "Grenzen",
    "Drives": "Antriebe",
    "Physics Material": "Physik-Material",
    "Collision Filter": "Kollisionsfilter",
    "Stored for export, not simulated": "Für den Export gespeichert, nicht simuliert",
    "Stored for export, not simulated by Blender:": "Für den Export gespeichert, von Blender nicht simuliert:",
    "Computed from the collider shapes": "Aus den Kollisionsformen berechnet",
    "Settle preview (from rest)": "Einschwingvorschau (aus der Ruhe)",
    # viewport overlay, Adopt Physics Settings, tooltips with units (issue 13, items 2, 5, 6)
    "glTF Physics Overlay": "glTF-Physik-Überlagerung",
    "Show glTF Physics": "glTF-Physik anzeigen",
    "Shapes": "Formen",
    "Joints": "Gelenke",
    "Centre of Mass": "Schwerpunkt",
    "Velocities": "Geschwindigkeiten",
    "Selected objects: {}": "Ausgewählte Objekte: {}",
    "Other add-on's settings on {} object(s)": "Einstellungen des anderen Add-ons an {} Objekt(en)",
    "Adopt Physics Settings": "Physik-Einstellungen übernehmen",
    "Adopt Again": "Erneut übernehmen",
    "Whole Scene": "Ganze Szene",
    "Also adopt the scene's rigid bodies that have none of the other add-on's settings (they have its defaults, "
    "and its exporter wrote them so: friction without combine mode, filter System_<i>)": (
        "Auch die Starrkörper der Szene ohne Einstellungen des anderen Add-ons übernehmen (sie haben dessen "
        "Standardwerte, und sein Exporter schrieb sie so: Reibung ohne Kombinationsmodus, Filter System_<i>)"
    ),
    "Adopted the physics settings of {} object(s)": "Physik-Einstellungen von {} Objekt(en) übernommen",
    "motion.centerOfMass (white star, node space, metres)": "motion.centerOfMass (weißer Stern, Knotenraum, Meter)",
    "m, node space, Blender axes (motion.centerOfMass; written as (x, z, −y))": (
        "m, Knotenraum, Blender-Achsen (motion.centerOfMass; geschrieben als (x, z, −y))"
    ),
    "kg·m², principal moments, Blender axes (motion.inertiaDiagonal; written as (x, z, y))": (
        "kg·m², Hauptträgheitsmomente, Blender-Achsen (motion.inertiaDiagonal; geschrieben als (x, z, y))"
    ),
    "Principal axes rotation, Blender (w, x, y, z) (motion.inertiaOrientation: xyzw, glTF axes)": (
        "Drehung der Hauptachsen, Blender (w, x, y, z) (motion.inertiaOrientation: xyzw, glTF-Achsen)"
    ),
    "m/s, node space, Blender axes (motion.linearVelocity; written as (x, z, −y))": (
        "m/s, Knotenraum, Blender-Achsen (motion.linearVelocity; geschrieben als (x, z, −y))"
    ),
    "rad/s, node space, Blender axes (motion.angularVelocity; written as (x, z, −y))": (
        "rad/s, Knotenraum, Blender-Achsen (motion.angularVelocity; geschrieben als (x, z, −y))"
    ),
    "m, frame B in frame A at load (glTF axes)": "m, Rahmen B in Rahmen A beim Laden (glTF-Achsen)",
    "Draw the glTF physics of the selected objects in the 3D viewport (collision shapes as the file means them, "
    "joint frames and limits, drive targets, centre of mass, initial velocities)": (
        "Die glTF-Physik der ausgewählten Objekte im 3D-Viewport zeichnen (Kollisionsformen, wie die Datei sie "
        "meint, Gelenkrahmen und Grenzen, Antriebsziele, Schwerpunkt, Anfangsgeschwindigkeiten)"
    ),
    "Collider (cyan) and trigger (orange) shapes: the stored KHR_implicit_shapes parameters, else the primitive "
    "export derives from the mesh bounds": (
        "Kollider- (cyan) und Auslöserformen (orange): die gespeicherten KHR_implicit_shapes-Parameter, sonst das "
        "Grundobjekt, das der Export aus den Netzgrenzen ableitet"
    ),
    "Joint attachment frames A and B (glTF X red, Y green, Z blue), limit ranges (magenta, metres and radians of "
    "the joint's limits) and drive targets (yellow)": (
        "Gelenkrahmen A und B (glTF X rot, Y grün, Z blau), Grenzbereiche (magenta, Meter und Radiant der "
        "Gelenkgrenzen) und Antriebsziele (gelb)"
    ),
    "motion.linearVelocity (arrow: metres travelled in 1 s) and motion.angularVelocity (arc: radians turned in 1 s "
    "about the spin axis)": (
        "motion.linearVelocity (Pfeil: in 1 s zurückgelegte Meter) und motion.angularVelocity (Bogen: in 1 s um "
        "die Drehachse gedrehte Radiant)"
    ),
    "Convert the settings of the other glTF-physics add-on (khr_physics_extra_props / _constraint_props) into "
    "glTF Physics data; the original properties are left as they are": (
        "Die Einstellungen des anderen glTF-Physik-Add-ons (khr_physics_extra_props / _constraint_props) in "
        "glTF-Physik-Daten umwandeln; die ursprünglichen Eigenschaften bleiben unverändert"
    ),
    "Also convert objects that already carry glTF Physics data (their stored values are replaced)": (
        "Auch Objekte umwandeln, die schon glTF-Physik-Daten tragen (ihre gespeicherten Werte werden ersetzt)"
    ),
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
    "Check Simulation": "Vérifier la simulation",
    "Limits": "Limites",
    "Drives": "Entraînements",
    "Physics Material": "Matériau physique",
    "Collision Filter": "Filtre de collision",
    "Stored for export, not simulated": "Conservé pour l’export, non simulé",
    "Stored for export, not simulated by Blender:": "Conservé pour l’export, non simulé par Blender :",
    "Computed from the collider shapes": "Calculé à partir des formes de collision",
    "Settle preview (from rest)": "Aperçu de stabilisation (depuis le repos)",
    # viewport overlay, Adopt Physics Settings, tooltips with units (issue 13, items 2, 5, 6)
    "glTF Physics Overlay": "Superposition physique glTF",
    "Show glTF Physics": "Afficher la physique glTF",
    "Shapes": "Formes",
    "Joints": "Articulations",
    "Centre of Mass": "Centre de masse",
    "Velocities": "Vitesses",
    "Selected objects: {}": "Objets sélectionnés : {}",
    "Other add-on's settings on {} object(s)": "Réglages de l’autre module sur {} objet(s)",
    "Adopt Physics Settings": "Reprendre les réglages physiques",
    "Adopt Again": "Reprendre à nouveau",
    "Whole Scene": "Toute la scène",
    "Also adopt the scene's rigid bodies that have none of the other add-on's settings (they have its defaults, "
    "and its exporter wrote them so: friction without combine mode, filter System_<i>)": (
        "Reprendre aussi les corps rigides de la scène sans réglages de l’autre module (ils ont ses valeurs par "
        "défaut, et son exporteur les écrivait ainsi : frottement sans mode de combinaison, filtre System_<i>)"
    ),
    "Adopted the physics settings of {} object(s)": "Réglages physiques de {} objet(s) repris",
    "motion.centerOfMass (white star, node space, metres)": (
        "motion.centerOfMass (étoile blanche, espace du nœud, mètres)"
    ),
    "m, node space, Blender axes (motion.centerOfMass; written as (x, z, −y))": (
        "m, espace du nœud, axes Blender (motion.centerOfMass ; écrit (x, z, −y))"
    ),
    "kg·m², principal moments, Blender axes (motion.inertiaDiagonal; written as (x, z, y))": (
        "kg·m², moments principaux, axes Blender (motion.inertiaDiagonal ; écrit (x, z, y))"
    ),
    "Principal axes rotation, Blender (w, x, y, z) (motion.inertiaOrientation: xyzw, glTF axes)": (
        "Rotation des axes principaux, Blender (w, x, y, z) (motion.inertiaOrientation : xyzw, axes glTF)"
    ),
    "m/s, node space, Blender axes (motion.linearVelocity; written as (x, z, −y))": (
        "m/s, espace du nœud, axes Blender (motion.linearVelocity ; écrit (x, z, −y))"
    ),
    "rad/s, node space, Blender axes (motion.angularVelocity; written as (x, z, −y))": (
        "rad/s, espace du nœud, axes Blender (motion.angularVelocity ; écrit (x, z, −y))"
    ),
    "m, frame B in frame A at load (glTF axes)": "m, repère B dans le repère A au chargement (axes glTF)",
    "Draw the glTF physics of the selected objects in the 3D viewport (collision shapes as the file means them, "
    "joint frames and limits, drive targets, centre of mass, initial velocities)": (
        "Dessiner la physique glTF des objets sélectionnés dans la vue 3D (formes de collision telles que le "
        "fichier les définit, repères et limites des articulations, cibles des entraînements, centre de masse, "
        "vitesses initiales)"
    ),
    "Collider (cyan) and trigger (orange) shapes: the stored KHR_implicit_shapes parameters, else the primitive "
    "export derives from the mesh bounds": (
        "Formes des collisionneurs (cyan) et des déclencheurs (orange) : les paramètres KHR_implicit_shapes "
        "conservés, sinon la primitive que l’export déduit des bornes du maillage"
    ),
    "Joint attachment frames A and B (glTF X red, Y green, Z blue), limit ranges (magenta, metres and radians of "
    "the joint's limits) and drive targets (yellow)": (
        "Repères d’attache A et B (glTF X rouge, Y vert, Z bleu), plages des limites (magenta, mètres et radians "
        "des limites) et cibles des entraînements (jaune)"
    ),
    "motion.linearVelocity (arrow: metres travelled in 1 s) and motion.angularVelocity (arc: radians turned in 1 s "
    "about the spin axis)": (
        "motion.linearVelocity (flèche : mètres parcourus en 1 s) et motion.angularVelocity (arc : radians "
        "tournés en 1 s autour de l’axe de rotation)"
    ),
    "Convert the settings of the other glTF-physics add-on (khr_physics_extra_props / _constraint_props) into "
    "glTF Physics data; the original properties are left as they are": (
        "Convertir les réglages de l’autre module de physique glTF (khr_physics_extra_props / _constraint_props) "
        "en données de physique glTF ; les propriétés d’origine restent inchangées"
    ),
    "Also convert objects that already carry glTF Physics data (their stored values are replaced)": (
        "Convertir aussi les objets qui portent déjà des données de physique glTF (leurs valeurs sont remplacées)"
    ),
    "Time to target: {:.4g} s (within {:g} {})": "Temps jusqu’à la cible : {:.4g} s (à {:g} {} près)",
    "Overshoot: {:.4g} {} ({:.1f} %)": "Dépassement : {:.4g} {} ({:.1f} %)",
    "Blender mass: {:.4g} kg": "Masse Blender : {:.4g} kg",
    "yes": "oui",
    "no": "non",
}

# Texts of the panel sync (ui/sync_*.py) and the filter lists (ui/filters/filter_lists.py).
_DE.update(
    {
        "simulated": "simuliert",
        "reproduced": "nachgebildet",
        "stored only": "nur gespeichert",
        "Inertia: {}": "Trägheit: {}",
        "Add System": "System hinzufügen",
        "Remove System": "System entfernen",
        "Filters from Collision Collections": "Filter aus Kollisionssammlungen",
        "Collision Collections from Filters": "Kollisionssammlungen aus Filtern",
        "Collides with: {}{}": "Kollidiert mit: {}{}",
        " … {} more": " … {} weitere",
        "nothing": "nichts",
        "absent": "fehlt",
        "{}: not a JSON list of names": "{}: keine JSON-Liste von Namen",
        "Collision Systems": "Kollisionssysteme",
        "Collide With": "Kollidiert mit",
        "Not Collide With": "Kollidiert nicht mit",
        "New Name": "Neuer Name",
        "Radius Top": "Radius oben",
        "Radius Bottom": "Radius unten",
    }
)
_FR.update(
    {
        "simulated": "simulé",
        "reproduced": "reproduit",
        "stored only": "conservé seulement",
        "Inertia: {}": "Inertie : {}",
        "Add System": "Ajouter un système",
        "Remove System": "Retirer le système",
        "Filters from Collision Collections": "Filtres depuis les collections de collision",
        "Collision Collections from Filters": "Collections de collision depuis les filtres",
        "Collides with: {}{}": "Entre en collision avec : {}{}",
        " … {} more": " … {} de plus",
        "nothing": "rien",
        "absent": "absente",
        "{}: not a JSON list of names": "{} : pas une liste JSON de noms",
        "Collision Systems": "Systèmes de collision",
        "Collide With": "Collision avec",
        "Not Collide With": "Pas de collision avec",
        "New Name": "Nouveau nom",
        "System": "Système",
        "Radius Top": "Rayon en haut",
        "Radius Bottom": "Rayon en bas",
    }
)

# Texts of the plane parameters, the render-mesh note and the trigger read-out (issue 13 follow-ups).
_DE.update(
    {
        "Size X": "Größe X",
        "Size Z": "Größe Z",
        "Double Sided": "Beidseitig",
        "The render mesh carries this shape: an edit moves it onto a generated proxy": (
            "Das Render-Mesh trägt diese Form: eine Änderung verschiebt sie auf einen erzeugten Stellvertreter"
        ),
        "Overlaps with: {}{}": "Überlappt mit: {}{}",
    }
)
_FR.update(
    {
        "Size X": "Taille X",
        "Size Z": "Taille Z",
        "Double Sided": "Double face",
        "The render mesh carries this shape: an edit moves it onto a generated proxy": (
            "Le maillage de rendu porte cette forme : une modification la déplace sur un substitut généré"
        ),
        "Overlaps with: {}{}": "Chevauche : {}{}",
    }
)

TRANSLATIONS: dict[str, dict[tuple[str, str], str]] = {
    locale: {(CTX, msgid): text for msgid, text in table.items()} for locale, table in (("de_DE", _DE), ("fr_FR", _FR))
}


def _key() -> str:
    return __package__ or __name__


def register_module() -> None:
    API.register(_key(), TRANSLATIONS)


def unregister_module() -> None:
    API.unregister(_key())
