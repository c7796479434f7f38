"""The npm map packages of tools/build_maps.py: fetching them (pinned, checked against the
registry's SHA-512) and decoding their TopoJSON arcs into rings."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import tarfile
from pathlib import Path

PACKAGES = {
    "us-atlas": (
        "3.0.1",
        "sha512-wEIZCq0ImPvGblTd8gZMqNNCPkQshugMUG/8nkSWXb02+XqNFREg9atHOKP9w6prLZTpqcLhSvdBW81MkV3/0Q==",
    ),
    "es-atlas": (
        "0.6.0",
        "sha512-+sl1xwndSaM1E1EnjBAFBOldyXATld4GbDIJvvSzbgPKgK6lDJ0vVZ1rOdEtucysWLdxChKWhtCZ2SdkzbF/fg==",
    ),
}

# --------------------------------------------------------------------------
# Fetching
# --------------------------------------------------------------------------


def _sri(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def fetch_tarball(name: str, cache: Path | None, workdir: Path) -> bytes:
    version, integrity = PACKAGES[name]
    fname = f"{name}-{version}.tgz"
    path = cache / fname if cache else None
    if path is None or not path.exists():
        subprocess.run(
            ["npm", "pack", "--silent", f"{name}@{version}"],
            cwd=workdir, check=True, stdout=subprocess.DEVNULL,
        )
        path = workdir / fname
    data = path.read_bytes()
    if _sri(data) != integrity:
        raise SystemExit(f"{path}: integrity mismatch (expected {integrity})")
    return data


def read_member(tgz: bytes, member: str) -> dict:
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as tf:
        f = tf.extractfile(member)
        if f is None:
            raise SystemExit(f"{member} not found in tarball")
        return json.loads(f.read().decode("utf-8"))


# --------------------------------------------------------------------------
# Topology
# --------------------------------------------------------------------------


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """Absolute coordinates of every arc (delta-decoded, transform applied)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    out = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        out.append(pts)
    return out


def object_polygons(geom: dict) -> list[list[list[int]]]:
    """Polygons (lists of rings, ring = list of arc refs) of a TopoJSON geometry."""
    if geom["type"] == "Polygon":
        return [geom["arcs"]]
    if geom["type"] == "MultiPolygon":
        return geom["arcs"]
    raise ValueError(geom["type"])


def arc_index(ref: int) -> int:
    return ref if ref >= 0 else ~ref


def ring_coords(arcs, refs) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for ref in refs:
        a = arcs[ref] if ref >= 0 else arcs[~ref][::-1]
        pts.extend(a if not pts else a[1:])
    # drop consecutive duplicates (rounding can create them)
    out = [pts[0]] if pts else []
    for p in pts[1:]:
        if p != out[-1]:
            out.append(p)
    return out


def signed_area(pts) -> float:
    s = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        s += x0 * y1 - x1 * y0
    return s / 2.0


def ring_ok(pts) -> bool:
    return len(pts) >= 4 and pts[0] == pts[-1] and signed_area(pts) != 0.0
