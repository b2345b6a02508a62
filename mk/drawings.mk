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

# `make demo` (issue 41 item 7): one shipped photo of a drawing on paper (AnimatedDrawings' char1,
# its texture.png, no declaration at all) -> out/rig-drawing/: the guessed skeleton drawn over the
# drawing (guess.png), the build folder (build/: skeleton.json = the guess, sheet.png, character.riv,
# report.json), a walk and a wave as strips (walk.png, wave.png, by the reference renderer) and a
# page that plays the .riv from file:// (walk.html by `re2d rig page`, rive.js beside it).
DEMO_TARGETS += demo-drawing
DRAWING_DEMO := out/rig-drawing
DRAWING_IN   := assets/drawings/animated-drawings/char1/texture.png

.PHONY: demo-drawing

demo-drawing: release riv-npm
	@rm -rf $(DRAWING_DEMO) && mkdir -p $(DRAWING_DEMO)
	target/release/re2d rig build $(DRAWING_IN) --motion walk=assets/mocap/cmu-131-01-walk.bvh \
	  --motion wave=assets/mocap/fair1-wave-hello.bvh --out $(DRAWING_DEMO)/build
	target/release/examples/rig_skeleton_picture $(DRAWING_DEMO)/build/skeleton.json $(DRAWING_DEMO)/guess.png 1
	@set -e; for c in walk wave; do \
	  target/release/re2d rig render $(DRAWING_DEMO)/build/model.json --clip $$c --frames 8 --scale 0.33 --strip $(DRAWING_DEMO)/$$c.png; \
	done
	target/release/re2d rig page $(DRAWING_DEMO)/build/character.riv --clip walk -o $(DRAWING_DEMO)/walk.html --runtime $(RIVE_JS)
	@echo "demo-drawing: $(DRAWING_DEMO)/ (guess.png, build/sheet.png, walk.png, wave.png, walk.html)"

# Speed (issue 41): `rig guess` on the 1696x2528 biped and on a 12-megapixel JPEG photo of the
# biped on paper (decode -> guessed declaration), CPU seconds from /usr/bin/time, one core.
BENCH_TARGETS += bench-guess
.PHONY: bench-guess

bench-guess: release
	@mkdir -p target/bench-guess
	@target/release/examples/rig_drawings target/bench-guess/d >/dev/null
	@target/release/examples/rig_photos target/bench-guess/p --seed 5 --size 4000x3000 >/dev/null
	@target/release/examples/rig_jpeg target/bench-guess/p/biped-photo-s5.png target/bench-guess/photo12mp.jpg
	@for f in target/bench-guess/d/biped.png target/bench-guess/photo12mp.jpg; do \
	  /usr/bin/time -f "$$f: user %U s, system %S s, wall %e s, peak %M KiB" taskset -c 0 \
	    target/release/re2d rig guess $$f -o target/bench-guess/guess.json 2>&1 | grep -v confidence; done
