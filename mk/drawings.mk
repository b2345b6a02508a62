# Drawings as people bring them (issue 41): photos of paper, the three characters of
# AnimatedDrawings (assets/drawings/animated-drawings, MIT), JPEG.
#
#   make test-drawings   the figure found on paper against the shipped masks (IoU >= 0.95 each,
#                        with a mirrored control that must score below) and on generated
#                        characters photographed on paper (IoU >= 0.97, crop IoU >= 0.97);
#                        JPEG decoding, EXIF orientation, sizes checked before decoding

TEST_TARGETS += test-drawings

.PHONY: test-drawings

test-drawings:
	$(CARGO) test --release -p re2d-rig --test rig_drawings --test rig_image -- --nocapture
