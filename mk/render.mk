# re2d render demo: compile the animal template's surface, then render it walking and turning.
#
#   make demo-render   out/animal/ (atlas + model files), out/animal-walk.png (8-frame sheet) and
#                      out/animal-walk.apng.png / .gif (24 frames walking and turning, cropped with --fit)

RE2D := target/release/re2d
ASSETS ?= $(CURDIR)/assets

DEMO_TARGETS += demo-render

.PHONY: demo-render

demo-render: release
	mkdir -p out/animal
	cp $(ASSETS)/animal.character.json $(ASSETS)/animal.animations.json out/animal/
	$(RE2D) compile $(ASSETS)/animal.surface.json --output out/animal/animal.png
	$(RE2D) render out/animal/animal.character.json --turn 45 --frames 8 --pitch 10 --sheet out/animal-walk.png
	$(RE2D) render out/animal/animal.character.json --turn 15 --frames 24 --pitch 10 --fit \
	  --apng out/animal-walk.apng.png --gif out/animal-walk.gif
