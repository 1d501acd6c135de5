"""``kubectl crd workbench``: one screen for writing a custom resource against its CRD.

- ``session``: the state and every answer the screen shows (field tree, explanation,
  the file checked through the admission step, printer-column rows, the stored
  object), free of any UI library and tested on its own;
- ``app``: the Textual application that draws a ``Session`` (imported only by the
  ``workbench`` command: Textual is the one dependency no other command loads).
"""
