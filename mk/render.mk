# re2d render demo: compile the animal template's surface, then render it walking and turning.
#
#   make demo-render   out/animal/ (atlas + model files) and out/animal-walk.png (8-frame sheet)

RE2D := target/release/re2d
ASSETS ?= $(CURDIR)/assets

DEMO_TARGETS += demo-render

.PHONY: demo-render

demo-render:
	$(CARGO) build --release --bin re2d
	mkdir -p out/animal
	cp $(ASSETS)/animal.character.json $(ASSETS)/animal.animations.json out/animal/
	$(RE2D) compile $(ASSETS)/animal.surface.json --output out/animal/animal.png
	$(RE2D) render out/animal/animal.character.json --turn 45 --frames 8 --pitch 10 --sheet out/animal-walk.png
