"""The referee web app served by ``fanscan serve``: a FastAPI app (``app.create_app``) with a JSON
API, a phone-friendly page under ``static/`` and drawn tile images (``tile_faces``).

Needs the ``web`` extra (fastapi, uvicorn, python-multipart); importing this package alone loads
nothing heavy.
"""
