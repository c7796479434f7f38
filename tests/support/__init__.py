"""Test support outside the runtime package: the synthetic-photo generator (synth.py with
synth_ink, synth_scene, synth_pencil), used by tests, bench/ and tools/ (with tests/ on
sys.path: `from support import synth`)."""
