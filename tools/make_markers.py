"""Write rnwprint/assets/markers.json: the bit patterns of the four corner
fiducials (ArUco DICT_4X4_50, ids 0-3), so printing never imports OpenCV.

    python tools/make_markers.py
"""

import json
import pathlib

import cv2

DICTIONARY = "DICT_4X4_50"
CORNERS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}


def main() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    markers = {}
    for corner, marker_id in CORNERS.items():
        image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
        markers[corner] = {
            "id": marker_id,
            "rows": ["".join("0" if v else "1" for v in row) for row in image],
        }
    out = pathlib.Path(__file__).resolve().parent.parent / "rnwprint" / "assets" / "markers.json"
    out.write_text(json.dumps({"dictionary": DICTIONARY, "markers": markers}, indent=1) + "\n")


if __name__ == "__main__":
    main()
