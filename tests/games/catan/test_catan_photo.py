"""Reading Catan's shared island map from a phone photo: each place's owner by pencil
colour, a dot (village) or a fill (city, road, town hall)."""

from __future__ import annotations

import numpy as np
import pytest
from catan_support import game_toml, pencil_game
from support.synth import make_photo
from support.synth_pencil import PENCILS, Pencil, fill_pencil

from rnwprint.app.audit import audit_file
from rnwprint.games import GAMES
from rnwprint.games.catan import photo as catan_photo
from rnwprint.photo.light import LIGHT_WHY
from rnwprint.photo.pipeline import read_photo

CATAN = GAMES["catan"]


@pytest.fixture(scope="module")
def photographed(tmp_path_factory):
    """Two finished maps (one shuffled, one in a half shadow) photographed at 4 MP, and read."""
    out = []
    for seed, variant, options in ((31, "map", {}), (32, "map-5", {"shadow": 0.5})):
        sheet = CATAN.build(variant, "en", "a4")
        truth, marks = pencil_game(seed, sheet)
        path = tmp_path_factory.mktemp("catan") / f"{seed}.jpg"
        path.write_bytes(make_photo(sheet, marks, seed=seed, megapixels=4, **options))
        out.append((sheet, truth, path, read_photo(path)))
    return out


def test_every_place_is_read_or_flagged(photographed):
    for sheet, truth, _, result in photographed:
        assert set(result.reads) == set(sheet.cells)
        right = sum(r.value == truth.get(cid) for cid, r in result.reads.items())
        wrong_quiet = [cid for cid, r in result.reads.items() if r.value != truth.get(cid) and not r.unsure]
        assert right >= 0.99 * len(sheet.cells)
        assert wrong_quiet == []
        assert sum(r.unsure for r in result.reads.values()) <= 0.05 * len(sheet.cells)


def test_a_mirrored_photo_of_the_map_reads_as_the_photo_itself(photographed, tmp_path):
    import cv2

    _, _, path, result = photographed[0]
    mirrored = tmp_path / "mirrored.png"
    cv2.imwrite(str(mirrored), cv2.imread(str(path))[:, ::-1])
    again = read_photo(mirrored)
    assert {cid: r.value for cid, r in again.reads.items()} == {cid: r.value for cid, r in result.reads.items()}


def test_a_black_and_white_photo_of_the_map_is_refused_saying_why(photographed, cli, tmp_path):
    """Catan's pieces are told apart by colour: a grey photo (a messenger's "black and white",
    a grey scan) would read pieces of the wrong colour, sure. Refused in one line, exit 2; the
    same photo a third as bright, in colour, is read."""
    import cv2

    _, _, path, _ = photographed[0]
    colour = cv2.imread(str(path))
    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    for command in ("read", "audit"):
        result = cli(command, grey)
        assert result.code == 2
        assert result.err == (f"rnwprint: {grey}: the photo has no colour (black and white?): the pieces on this "
                              "sheet are told apart by their pencils' colours; send the photo in colour\n")
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), (colour // 3).astype(np.uint8))
    assert len(read_photo(dim).reads) == len(photographed[0][0].cells)


def test_a_photo_is_colourless_when_99_in_100_of_its_pixels_are_grey():
    """A grey photo with a small coloured thing in view (half a percent of it) is still black
    and white; a colour photo, however dim, is not."""
    from rnwprint.photo.pipeline import _colourless

    grey = np.full((700, 700, 3), 180, np.uint8)
    assert _colourless(grey)
    sticker = grey.copy()
    sticker[:35, :70] = (40, 40, 220)  # 0.5 % of the photo
    assert _colourless(sticker)
    sticker[:70, :350] = (40, 40, 220)  # 5 %
    assert not _colourless(sticker)
    dim = (grey // 20).copy()
    dim[::2, :, 2] += 2  # a dim photo's colour: 2 levels of 9
    assert not _colourless(dim)


def test_a_photo_audits_as_its_typed_in_file(photographed, write):
    _, truth, path, result = photographed[0]
    read = {cid: list(value) if len(value) > 1 else value[0] for cid, value in result.entries().cells.items()}
    assert sum(read.get(k) == v[0] for k, v in truth.items()) >= 0.99 * len(truth)
    typed = audit_file(write("game.toml", game_toml(read, {})), "en")
    seen = audit_file(path, "en")
    assert [(v.rule, v.cells) for v in seen.violations] == [(v.rule, v.cells) for v in typed.violations]
    assert seen.details["players"] == typed.details["players"] and seen.score == typed.score


def test_read_writes_a_typed_in_file_the_audit_takes(photographed, cli, tmp_path):
    _, truth, path, _ = photographed[1]
    assert cli("read", path, "-o", tmp_path / "read.toml").code == 0
    text = (tmp_path / "read.toml").read_text()
    some = min(truth)
    assert f'{some} = "{truth[some][0]}"' in text
    assert cli("audit", tmp_path / "read.toml").code in (0, 1)


def test_a_coarse_photo_of_the_map_says_so_without_speaking_of_digits(tmp_path):
    sheet = CATAN.build("map", "en", "a4")
    _, marks = pencil_game(33, sheet)
    path = tmp_path / "coarse.jpg"
    path.write_bytes(make_photo(sheet, marks, seed=33, megapixels=1.5))
    result = read_photo(path)
    assert result.too_coarse
    assert "what is written on it reads well from 4 px/mm" in result.advice()
    assert "lo escrito se lee bien desde 4 px/mm" in result.advice("es")
    assert "digit" not in result.advice() and "dígito" not in result.advice("es")


def test_a_pencil_fill_covers_more_than_a_dot_and_keeps_its_hue():
    sheet = CATAN.build("map", "en", "a4")
    page = np.full((int(sheet.height * 8), int(sheet.width * 8), 3), 255, np.uint8)
    fill_pencil(page, sheet, {"V20": Pencil("blue", False), "V30": Pencil("blue", True), "E40": Pencil("orange", True)},
                np.random.default_rng(1))

    def inked(cid):
        x0, y0, x1, y1 = (int(v * 8) for v in sheet.cells[cid].bounds)
        patch = page[y0:y1, x0:x1].reshape(-1, 3).astype(int)
        return patch[(255 - patch).max(axis=1) > 40]

    dot, fill, road = inked("V20"), inked("V30"), inked("E40")
    assert 0 < len(dot) < 0.5 * len(fill)
    for pixels, colour in ((fill, "blue"), (road, "orange")):
        absorbed = (255 - pixels).mean(axis=0)  # RGB
        want = 255 - np.array(PENCILS[colour])
        assert np.argmax(absorbed) == np.argmax(want) and np.argmin(absorbed) == np.argmin(want)


# a firm stroke's absorption of blue, green, red light (BGR), from the pencils' RGB
FIRM = {name: 1 - np.array(rgb[::-1]) / 255 for name, rgb in PENCILS.items()}


def _place(kind, amount, rim=None, shares=None, coarse=False, mean=None, dot=0.0, rim_dark=0.0):
    """_decide on a place holding `amount` of a firm stroke (the mean's chroma over the
    stroke's), `rim` of it in a corner's rim, its pixels' votes shared as `shares`; a corner's
    darkness bulging by `dot` in its middle and `rim_dark` dark on its rim."""
    names, ref = catan_photo._pencils()
    shares = shares or {"red": 1.0}
    colour = max(shares, key=shares.get)
    mean = FIRM[colour] * amount + 0.05 if mean is None else mean  # + 0.05: a grey (a shadow) is no pencil
    ring = FIRM[colour] * (amount if rim is None else rim)
    votes = np.round(np.array([shares.get(n, 0.0) for n in names]) * 100)  # whole votes: shares exact
    return catan_photo._decide("X", kind, votes, mean, mean, ring, names, ref, coarse, dot, rim_dark)


@pytest.mark.parametrize("amount,dot,rim,rim_dark,value,unsure", [
    (0.02, 0.0, 0.0, 0.0, None, False),  # nothing
    (0.02, 0.035, 0.0, 0.0, None, False),  # a speck's bump
    (0.02, 0.05, 0.0, 0.0, None, True),  # the faintest dot? blank, flagged
    (0.065, 0.0, 0.0, 0.0, None, False),  # colour bled in from a neighbour, no bump
    (0.08, 0.0, 0.0, 0.0, None, True),  # more colour, no bump: flagged
    (0.02, 0.07, 0.0, 0.0, ("red village",), True),  # a bump with hardly a colour: a village, flagged
    (0.05, 0.12, 0.0, 0.0, ("red village",), False),  # a faint dot, plainly a bump
    (0.05, 0.08, 0.0, 0.0, ("red village",), True),  # a faint dot, a faint bump
    (0.12, 0.0, 0.0, 0.0, ("red village",), False),  # a wide, even dot: coloured enough
    (0.30, 0.3, 0.04, 0.0, ("red village",), False),  # a dark dot spilling a little colour
    (0.30, 0.3, 0.10, 0.02, ("red village",), False),  # its colour blurred onto the rim, its darkness not
    (0.30, 0.3, 0.10, 0.06, ("red city",), True),  # both, just: dot or fill?
    (0.30, 0.3, 0.10, 0.08, ("red city",), False),  # a light fill: colour and darkness on the rim
    (0.30, 0.0, 0.13, 0.0, ("red city",), True),  # colour on the rim just past the line
    (0.30, 0.0, 0.15, 0.0, ("red city",), False),  # a fill reaches the rim
    (0.08, 0.0, 0.15, 0.0, ("red city",), False),  # a light, partial hatch, no bump: still a fill
    (0.30, 0.3, 0.055, 0.2, ("red village",), True),  # dark rim, too little colour there: flagged
    (0.30, 0.3, 0.10, 0.05, ("red village",), True),  # exactly on the line: not yet a city
    (0.02, catan_photo.DOT, 0.0, 0.0, ("red village",), True),  # exactly a dot's bump: a dot
    (0.02, catan_photo.UNSURE_DOT[0], 0.0, 0.0, None, False),  # the unsure band starts past it
    (0.05, catan_photo.UNSURE_DOT[1], 0.0, 0.0, ("red village",), False),  # the faint band ends there
])
def test_blank_dot_or_fill_in_a_corner(amount, dot, rim, rim_dark, value, unsure):
    read = _place("corner", amount, rim, dot=dot, rim_dark=rim_dark)
    assert (read.value, read.unsure) == (value, unsure)
    if value and "dot or fill?" in read.why:
        assert read.confidence == pytest.approx(0.5)  # one colour, half sure of the piece


def test_a_piece_too_faint_for_its_colour_is_flagged_with_its_guess():
    read = _place("corner", 0.04, dot=0.2)
    assert read.value == ("red village",) and read.unsure and "too faint to tell (red?)" in read.why
    assert not _place("corner", 0.05, dot=0.2).unsure


@pytest.mark.parametrize("kind,amount,value,unsure", [
    ("road", 0.03, None, False),
    ("road", 0.05, None, True),
    ("road", 0.07, ("red",), True),  # faint marks
    ("road", 0.095, ("red",), True),  # too little for a fill
    ("road", 0.12, ("red",), False),
    ("hall", 0.05, None, True),
    ("hall", 0.30, ("red",), False),
])
def test_blank_or_fill(kind, amount, value, unsure):
    read = _place(kind, amount)
    assert (read.value, read.unsure) == (value, unsure)


def test_why_a_road_is_flagged():
    assert _place("road", 0.07).why == "faint marks; dot or fill?"
    assert _place("road", 0.095).why == "dot or fill?"


@pytest.mark.parametrize("shares,coarse,value,unsure", [
    ({"blue": 0.9, "green": 0.1}, False, ("blue",), False),
    ({"blue": 0.8, "green": 0.2}, False, ("blue",), True),  # a second colour's trace: flagged
    ({"blue": 0.7, "green": 0.3}, False, ("blue", "green"), True),  # two pieces on one place
    ({"blue": 0.75, "green": 0.25}, False, ("blue", "green"), True),  # at MIXED
    ({"blue": 0.85, "green": 0.15}, False, ("blue",), False),  # at UNSURE_MIXED
    ({"blue": 0.7, "green": 0.3}, True, ("blue",), True),  # a coarse photo's colour is noisier
    ({"blue": 0.6, "green": 0.4}, True, ("blue", "green"), True),
])
def test_two_colours(shares, coarse, value, unsure):
    read = _place("road", 0.4, shares=shares, coarse=coarse)
    assert (read.value, read.unsure) == (value, unsure)


def test_a_piece_no_pixel_votes_for_is_flagged():
    """The mean's colour says red, but no pixel is coloured enough to vote (a photo of
    washed-out colour): a guess, flagged, never a sure read of confidence 0."""
    names, ref = catan_photo._pencils()
    mean = FIRM["red"] * 0.4 + 0.05
    read = catan_photo._decide("X", "road", np.zeros(len(names)), mean, mean, mean, names, ref, False)
    assert read.value == ("red",) and read.unsure and read.why == "colour: too faint to tell (red?)"
    assert not _place("road", 0.4).unsure  # the same with its pixels' votes


@pytest.mark.parametrize("cosine,unsure", [(0.99, False), (0.985, False), (0.975, True), (0.95, True)])
def test_a_colour_between_pencils_is_flagged(cosine, unsure):
    # red's chroma turned away from it (towards green-absorbing, away from orange)
    u = FIRM["red"] - FIRM["red"].min()
    u /= np.linalg.norm(u)
    v = np.array([-u[1], u[0], 0.0])
    mean = 0.3 * (cosine * u + np.sqrt(1 - cosine ** 2) * v) + 0.2
    read = _place("road", 0.0, mean=mean)
    assert read.value == ("red",) and read.unsure == unsure


def test_how_finely_the_photo_sees_the_page():
    homography = np.array([[4.0, 0, 10], [0, 4.0, 20], [0, 0, 1]])
    assert catan_photo._px_per_mm(homography, (0, 0, 100, 100)) == pytest.approx(4.0)


def _top_down_photo(sheet, marks, px_per_mm, lamp=(1.0, 1.0, 1.0), fade=None, half=()):
    """A straight-down BGR photo of `sheet` with pencil `marks` at `px_per_mm`, lit by `lamp`
    (BGR gains); `fade`: cell -> how much of its pencil is left; `half`: cells whose pencil
    stops at the middle (a partial fill). Returns (image, page mm -> image px homography)."""
    import cv2

    from rnwprint.render.png import render_image

    s = 12.0  # drawn sharp, then seen at px_per_mm
    page = np.asarray(render_image(sheet, s * 25.4).convert("RGB")).astype(np.float32)
    pencil = np.full(page.shape, 255, np.uint8)
    fill_pencil(pencil, sheet, marks, np.random.default_rng(7))
    factor = pencil.astype(np.float32) / 255
    for cid, left in (fade or {}).items():
        x0, y0, x1, y1 = (int(v * s) for v in sheet.cells[cid].bounds)
        factor[y0 - 12:y1 + 12, x0 - 12:x1 + 12] = 1 - left * (1 - factor[y0 - 12:y1 + 12, x0 - 12:x1 + 12])
    for cid in half:
        x0, y0, x1, y1 = (int(v * s) for v in sheet.cells[cid].bounds)
        factor[y0 - 12:y1 + 12, (x0 + x1) // 2:x1 + 12] = 1
    bgr = (page * factor)[:, :, ::-1] * np.array(lamp, np.float32)
    k = px_per_mm / s
    small = cv2.resize(bgr, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    image = np.clip(cv2.GaussianBlur(small, (0, 0), 0.6), 0, 255).astype(np.uint8)
    return image, np.array([[px_per_mm, 0, -0.5], [0, px_per_mm, -0.5], [0, 0, 1]])


CRAFTED = {"V20": Pencil("green", False), "V30": Pencil("blue", True), "V31": Pencil("red", False),
           "E40": Pencil("orange", True), "T05": Pencil("green", True)}
CRAFTED_READ = {"V20": ("green village",), "V30": ("blue city",), "V31": ("red village",), "E40": ("orange",),
                "T05": ("green",)}


@pytest.mark.parametrize("px_per_mm", [6.0, 3.0])
@pytest.mark.parametrize("lamp", [(1.0, 1.0, 1.0), (0.70, 0.88, 1.0)])  # daylight; a warm bulb
def test_a_faint_dot_a_half_fill_under_a_lamp(px_per_mm, lamp):
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, px_per_mm, lamp, fade={"V20": 0.4}, half=["V30"])
    reads = catan_photo.read_map(image, homography, sheet)
    assert {cid: reads[cid].value for cid in CRAFTED} == CRAFTED_READ
    assert sorted(cid for cid, r in reads.items() if r.value is not None) == sorted(CRAFTED)
    assert [cid for cid, r in reads.items() if r.unsure] == []


@pytest.mark.parametrize("kind,amount,dot,confidence", [
    ("corner", 0.08, 0.0, 0.2), ("corner", 0.02, 0.045, 0.25), ("corner", 0.01, 0.0, 1.0),  # the surer the fainter
    ("road", 0.045, 0.0, 0.25), ("road", 0.02, 0.0, 1.0),
])
def test_how_sure_a_blank_is(kind, amount, dot, confidence):
    read = _place(kind, amount, 0.0 if kind == "corner" else None, dot=dot)
    assert read.value is None and read.confidence == pytest.approx(confidence, abs=0.01)


@pytest.mark.parametrize("angle", [0, 35, 80])
def test_the_edge_of_a_shadow_is_no_dot(angle):
    """A cast shadow's sharp edge darkens a band across blank corners: darker, but a slope, not
    a bump, so no village is read there; the faint dot and the pieces still are."""
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, 3.0, fade={"V20": 0.4}, half=["V30"])
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = np.radians(angle)
    across = (xx - w / 2) * np.cos(t) + (yy - h / 2) * np.sin(t)  # px from the edge
    light = 1 - 0.45 / (1 + np.exp(-across / 1.5))  # half a mm soft
    shaded = np.clip(image * light[:, :, None], 0, 255).astype(np.uint8)
    reads = catan_photo.read_map(shaded, homography, sheet)
    assert {cid: reads[cid].value for cid in CRAFTED} == CRAFTED_READ
    assert sorted(cid for cid, r in reads.items() if r.value is not None) == sorted(CRAFTED)


def test_a_bump_is_measured_and_a_band_is_not():
    """_dots on darkness fields drawn straight into one corner's pixels: a dot 1 mm across
    bulges; a band as wide, across the corner, and a slope do not."""
    sheet = CATAN.build("map", "en", "a4")
    layout = catan_photo._layout(sheet)
    w = layout.print_full.shape[1]
    corner = np.array([layout.kinds[cid] == "corner" for cid in layout.pixels])[layout.labels]
    ys, xs = np.divmod(layout.every, w)
    cx, cy = (xs[layout.labels == 0].mean(), ys[layout.labels == 0].mean())  # the first place: a corner
    assert layout.kinds[next(iter(layout.pixels))] == "corner"
    r = catan_photo.PX_PER_MM
    dx, dy = (xs - cx) / r, (ys - cy) / r  # mm
    fields = {"dot": 0.3 * np.exp(-(dx ** 2 + dy ** 2) / (2 * 0.4 ** 2)),
              "band": 0.3 * np.exp(-(dx ** 2) / (2 * 0.4 ** 2)),
              "slope": 0.05 * dx + 0.1}
    bulge = {name: catan_photo._dots(f.astype(np.float32), corner, layout)[0]
             for name, f in fields.items()}
    assert bulge["dot"] > 3 * catan_photo.DOT, bulge
    assert bulge["band"] < catan_photo.DOT and bulge["slope"] < 0.01, bulge


def test_each_corner_is_looked_at_on_its_own():
    """The corners are smoothed side by side in one small image: a dot in one corner bulges as
    much wherever it is, and never in another corner."""
    sheet = CATAN.build("map-7", "en", "letter")
    layout = catan_photo._layout(sheet)
    w = layout.print_full.shape[1]
    corner = np.array([layout.kinds[cid] == "corner" for cid in layout.pixels])[layout.labels]
    ys, xs = np.divmod(layout.every, w)
    corners = [i for i, cid in enumerate(layout.pixels) if layout.kinds[cid] == "corner"]
    seen = []
    for k in corners:
        mine = layout.labels == k
        d2 = ((xs - xs[mine].mean()) ** 2 + (ys - ys[mine].mean()) ** 2) / catan_photo.PX_PER_MM ** 2
        dark = np.where(mine, 0.3 * np.exp(-d2 / (2 * 0.4 ** 2)), 0).astype(np.float32)
        bulge = catan_photo._dots(dark, corner, layout)
        assert np.flatnonzero(bulge > 1e-6).tolist() == [k]
        seen.append(bulge[k])
    assert max(seen) - min(seen) < 0.1 * min(seen)  # the same dot, a pixel this way or that


def test_the_corners_side_by_side_measure_as_the_whole_map_would():
    """_dots smooths the corners tiled apart in a small image; smoothing the whole map region
    instead (slower: 8 times the pixels) gives the same bulges."""
    import cv2

    sheet = CATAN.build("map", "es", "a4")
    layout = catan_photo._layout(sheet)
    shape = layout.print_full.shape[:2]
    corner = np.array([layout.kinds[cid] == "corner" for cid in layout.pixels])[layout.labels]
    dark = np.random.default_rng(3).normal(0.05, 0.08, len(layout.every)).astype(np.float32)
    sigma = catan_photo.DOT_SIGMA_MM * catan_photo.PX_PER_MM
    value, weight = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    value.ravel()[layout.every[corner]], weight.ravel()[layout.every[corner]] = dark[corner], 1
    value, weight = (cv2.GaussianBlur(v, (0, 0), sigma) for v in (value, weight))
    smooth = np.where(weight > 0.3, value / np.maximum(weight, 1e-3), 0)
    dxx, dyy, dxy = (cv2.Sobel(smooth, cv2.CV_32F, dx, dy, ksize=3).ravel()[layout.every]
                     for dx, dy in ((2, 0), (0, 2), (1, 1)))
    flattest = (dxx + dyy) / 2 + np.sqrt(np.maximum(((dxx - dyy) / 2) ** 2 + dxy ** 2, 0))
    near = corner & (layout.radius < catan_photo.DOT_REACH_MM) & (weight.ravel()[layout.every] > 0.6)
    want = [max(float(np.max(-flattest[near & (layout.labels == i)], initial=0)) * sigma ** 2, 0)
            for i in range(len(layout.pixels))]
    assert catan_photo._dots(dark, corner, layout) == pytest.approx(want, abs=1e-5)


def test_a_fill_leaves_darkness_on_its_corners_rim_and_a_dot_not():
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, 6.0)
    layout = catan_photo._layout(sheet)
    f = catan_photo._features(image, homography, layout)
    at = {cid: i for i, cid in enumerate(layout.pixels)}
    assert f["rim_dark"][at["V30"]] > 2 * catan_photo.DARK_RIM[1]  # the blue city
    for cid in ("V20", "V31", "V01", "V40"):  # two villages, two blank corners
        assert abs(f["rim_dark"][at[cid]]) < 0.02
    assert f["dot"][at["V31"]] > 3 * catan_photo.DOT and f["dot"][at["V01"]] < catan_photo.UNSURE_DOT[0]


@pytest.mark.parametrize("gain", [2.0, 3.0])
def test_a_photo_too_bright_is_never_read_wrong_silently(gain):
    """Light strong enough to clip the paper and the terrains' light colours to white washes out
    light strokes: what cannot be told is flagged, with the reason; a dark pencil still reads."""
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, 4.0, lamp=(gain, gain, gain), fade={"V20": 0.4})
    reads = catan_photo.read_map(image, homography, sheet)
    want = {cid: CRAFTED_READ.get(cid) for cid in reads}
    wrong = [cid for cid, r in reads.items() if r.value != want[cid]]
    assert all(reads[cid].unsure for cid in wrong)
    bright = [r for r in reads.values() if r.light == "bright"]
    assert len(bright) > len(reads) / 2 and all("too bright" in r.why for r in bright)


def test_a_little_too_bright_flags_the_blanks_and_keeps_the_pieces():
    """Light a few percent past white (a print a little darker than the paper is clipped to
    white): a light stroke might be gone, so blanks are flagged; pieces read as in daylight."""
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, 6.0, lamp=(1.04, 1.04, 1.04))
    reads = catan_photo.read_map(image, homography, sheet)
    assert {cid: r.value for cid, r in reads.items() if r.value} == CRAFTED_READ
    assert not any(reads[cid].unsure for cid in CRAFTED)
    faded = [r for r in reads.values() if r.light]
    assert faded and all(r.value is None and r.why == LIGHT_WHY["faded"] for r in faded)



def test_a_photo_too_dark_is_flagged_everywhere_with_the_reason():
    sheet = CATAN.build("map", "en", "a4")
    image, homography = _top_down_photo(sheet, CRAFTED, 4.0, lamp=(0.12, 0.12, 0.12))  # paper ~30 of 255
    reads = catan_photo.read_map(image, homography, sheet)
    assert all(r.unsure and r.light == "dark" and LIGHT_WHY["dark"] in r.why for r in reads.values())
    image, homography = _top_down_photo(sheet, CRAFTED, 4.0, lamp=(0.2, 0.2, 0.2))  # ~50: dim, still read
    assert not any(r.light for r in catan_photo.read_map(image, homography, sheet).values())


def test_a_photo_of_the_notes_sheet_is_refused_saying_why(cli, tmp_path):
    """The notes sheet has no places to fill: read and audit say so in one line, exit 2."""
    photo = tmp_path / "notes.png"
    assert cli("sheet", "catan", "--variant", "notes", "-o", photo).code == 0
    for command in ("read", "audit"):
        result = cli(command, photo)
        assert result.code == 2
        assert result.err == f"rnwprint: {photo}: a catan notes sheet has no places to fill: nothing to read " \
                             "(photograph a sheet the players write on)\n"
