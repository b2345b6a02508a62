# Documentation (issue 9 items 2–3): generated CLI reference, link check, doc tests, README pictures.
#
#   make docs         regenerate docs/cli.md from `re2d <command> --help` (every subcommand it finds)
#   make docs-check   fails when docs/cli.md differs from what the built binary prints (run `make docs`)
#   make link-check   every link and image in README.md and docs/*.md resolves to a file in the repo
#                     (plus a negative control: a page with broken links must fail the same check)
#   make doc-test     the runnable examples of the rustdoc (`cargo test --doc`), and the API docs
#                     build without warnings (broken intra-doc links fail)
#   make docs-img     regenerate the README pictures in docs/img/ from the demo outputs (runs make demo)
#   make docs-conventions  docs/img/rig-sides.png and rig-axes.png (docs/rig.md "Conventions"), drawn
#                     by tools/conventions_img.py with the venv's Pillow (`make deps`); docs-img runs it too

DOCS_RE2D := target/release/re2d
DOCS_IMG  := docs/img

TEST_TARGETS += docs-check link-check doc-test

.PHONY: docs docs-check link-check doc-test docs-img docs-conventions

docs: release
	python3 tools/gen_cli_docs.py $(DOCS_RE2D) docs/cli.md

docs-check: release
	@mkdir -p target
	python3 tools/gen_cli_docs.py $(DOCS_RE2D) target/cli.md
	@diff -u docs/cli.md target/cli.md || { echo "docs/cli.md is stale: run 'make docs' and commit it"; exit 1; }
	@echo "docs-check: docs/cli.md matches the binary's help"

link-check:
	python3 tools/check_links.py . README.md docs/*.md
	@mkdir -p target
	@printf '# t\n[a](no-such-file.md) [b](https://example.org) [c](README.md#no-such-heading) [d](../../etc/passwd)\n' > target/links-negative.md
	@if python3 tools/check_links.py . target/links-negative.md >/dev/null; then \
	  echo "link-check: the negative control passed"; exit 1; fi
	@echo "link-check: negative control rejected"

doc-test:
	$(CARGO) test --doc
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --quiet

docs-img: demo docs-conventions
	$(MAKE) --no-print-directory examples
	target/release/examples/docs_img out $(DOCS_IMG)

docs-conventions: deps
	$(PY) tools/conventions_img.py $(DOCS_IMG)
