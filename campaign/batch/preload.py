"""What the batch's fork server imports before it forks any pool worker.

Importing this module IS its job (the one module of the package with an import-time side
effect): :mod:`multiprocessing`'s fork server imports the modules of its preload list by name,
once, and every worker it forks then starts with what they loaded. It loads and warms the
battle engine and imports the campaign loop (:func:`campaign.batch.worker.prepare_server`),
after asking to die with the coordinator (:func:`campaign.batch.lifeline.die_with_parent`).

Anything going wrong here leaves the workers to load it themselves (their initializer,
:func:`campaign.batch.worker.init_worker`, loads whatever is missing): the fork server stops
only on an ``ImportError`` of a preload module, and must not stop.
"""

from __future__ import annotations

import contextlib

from campaign.batch.lifeline import die_with_parent

die_with_parent()  # first: a coordinator killed from here on takes the server with it

from campaign.batch.worker import prepare_server  # noqa: E402 - after the lifeline, on purpose

with contextlib.suppress(Exception):
    prepare_server()
