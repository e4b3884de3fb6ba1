#!/usr/bin/python3
"""Makes the formulas' fonts of site/fonts/: Latin Modern Math cut down to what the pages draw.

    chapter-math.woff2           the MathML of reader.html (also inlined in reader-standalone.html)
    chapter-math-captions.woff2  the MathML of embed.html: its figure captions only (inlined there)

Run after a build, from the repository's root, with Debian's Python (python3-fonttools and
python3-brotli are Debian packages; the font comes from fonts-lmodern):

    apt-get install fonts-lmodern python3-fonttools python3-brotli
    node site/build.mjs dist     # or ./build.sh: the built pages whose MathML is read
    /usr/bin/python3 site/fonts/subset.py

then build again and commit the two .woff2 files. The build never runs this script: it copies
(reader.html) or inlines (the one-file pages) the committed fonts. Run it again when a formula
uses a character the font lacks: tests/browser/print.test.js fails then, naming the character.

What is kept:
  - every character of the page's MathML text (<annotation>, the TeX source, is not drawn), in
    the form a browser draws it: a one-letter <mi> is italic (MathML Core's text-transform
    math-auto: x becomes U+1D465), and a mathvariant other than "normal" maps to its
    Mathematical Alphanumeric Symbol, which Firefox draws (script L becomes U+2112);
  - the radical sign U+221A when the page has <msqrt> or <mroot> (the browser draws it; it is not
    in the text);
  - the MATH table, and through its closure the larger variants and the piece assemblies of every
    kept glyph: what lets brackets, radicals and sums stretch;
  - every OpenType layout feature (GSUB, GPOS) and the glyphs they reach: ssty (the script-size
    forms in sub- and superscripts) and dtls (dotless i and j under accents); Latin Modern Math
    1.959 has no flac.

The GUST Font License asks (without requiring it) that a changed font be renamed: the subsets are
named "Chapter Math", and their name table says what they were made from and how. See README.md.
"""
import argparse
import html.parser
import os
import sys
import unicodedata

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEBIAN_FONT = "/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"
FAMILY = "Chapter Math"
POSTSCRIPT = "ChapterMath-Regular"

# mathvariant values (MathML 3) as the words of Unicode's character names.
VARIANT_WORDS = {
    "bold": "BOLD", "italic": "ITALIC", "bold-italic": "BOLD ITALIC", "double-struck": "DOUBLE-STRUCK",
    "bold-fraktur": "BOLD FRAKTUR", "script": "SCRIPT", "bold-script": "BOLD SCRIPT", "fraktur": "FRAKTUR",
    "sans-serif": "SANS-SERIF", "bold-sans-serif": "SANS-SERIF BOLD", "sans-serif-italic": "SANS-SERIF ITALIC",
    "sans-serif-bold-italic": "SANS-SERIF BOLD ITALIC", "monospace": "MONOSPACE",
}
# The letters that Unicode encodes outside the Mathematical Alphanumeric Symbols block (its holes),
# by the name the block would have given them.
HOLES = {"MATHEMATICAL ITALIC SMALL H": "PLANCK CONSTANT", "MATHEMATICAL FRAKTUR CAPITAL C": "BLACK-LETTER CAPITAL C",
         "MATHEMATICAL FRAKTUR CAPITAL H": "BLACK-LETTER CAPITAL H", "MATHEMATICAL FRAKTUR CAPITAL I": "BLACK-LETTER CAPITAL I",
         "MATHEMATICAL FRAKTUR CAPITAL R": "BLACK-LETTER CAPITAL R", "MATHEMATICAL FRAKTUR CAPITAL Z": "BLACK-LETTER CAPITAL Z"}


def variant_of(ch, variant):
    """`ch` as mathvariant `variant` draws it (a Mathematical Alphanumeric Symbol), or ch itself."""
    words = VARIANT_WORDS.get(variant)
    if not words:
        return ch
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return ch
    for prefix, short in (("LATIN CAPITAL LETTER ", "CAPITAL "), ("LATIN SMALL LETTER ", "SMALL "),
                          ("GREEK CAPITAL LETTER ", "CAPITAL "), ("GREEK SMALL LETTER ", "SMALL "),
                          ("DIGIT ", "DIGIT "), ("GREEK ", ""), ("", "")):
        if name.startswith(prefix):
            wanted = f"MATHEMATICAL {words} {short}{name[len(prefix):]}"
            break
    for candidate in (wanted, HOLES.get(wanted), wanted.replace("MATHEMATICAL ", "")):
        if not candidate:
            continue
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            pass
    return ch


class MathText(html.parser.HTMLParser):
    """Collects the characters the <math> elements of a page draw."""

    TOKENS = {"mi", "mn", "mo", "mtext", "ms"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chars = set()
        self.stack = []  # (tag, mathvariant) of the open elements inside <math>
        self.text = []   # the text of the innermost open token element

    def handle_starttag(self, tag, attrs):
        if tag == "math" or self.stack:
            self.stack.append((tag, dict(attrs).get("mathvariant")))
            if tag in ("msqrt", "mroot"):
                self.chars.add("\u221a")
            if tag in self.TOKENS:
                self.text = []

    def handle_endtag(self, tag):
        if not self.stack:
            return
        while self.stack:
            open_tag, variant = self.stack.pop()
            if open_tag == tag:
                break
        if tag in self.TOKENS and not any(t == "annotation" for t, _ in self.stack):
            self.add_token(tag, variant, "".join(self.text))

    def handle_data(self, data):
        if self.stack and not any(t == "annotation" for t, _ in self.stack):
            self.text.append(data)

    def add_token(self, tag, variant, text):
        text = text.strip() if tag != "mtext" else text
        for ch in text:
            if tag == "mi" and len(text) == 1 and variant != "normal":
                # MathML Core draws a one-letter <mi> italic (text-transform: math-auto), and
                # Chromium does so whatever other mathvariant it has; Firefox draws the variant.
                self.chars.add(variant_of(ch, "italic"))
                if variant:
                    self.chars.add(variant_of(ch, variant))
            else:
                self.chars.add(ch)
                if variant and variant != "normal":
                    self.chars.add(variant_of(ch, variant))


def page_chars(pages):
    parser = MathText()
    for page in pages:
        with open(page, encoding="utf-8") as f:
            parser.feed(f.read())
    # Spaces are drawn in <mtext>; zero-width and invisible operators (U+2061 function
    # application) are not glyphs.
    return {c for c in parser.chars if unicodedata.category(c) not in ("Cc", "Cf")} | {" ", "\u00a0"}


def rename(font, source_version):
    """The GUST Font License's request: a changed font gets a new name, and says what it was made from."""
    names = font["name"]
    note = (f"A subset of Latin Modern Math {source_version} (B. Jackowski, P. Strzelczyk, P. Pianowski; "
            "GUST Font License), cut down to the characters of one chapter by site/fonts/subset.py, "
            "and renamed as the licence requests. The original font: http://www.gust.org.pl/projects/e-foundry/lm-math")
    for rec in list(names.names):
        if rec.nameID in (1, 4, 16, 21):
            names.setName(FAMILY, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 3:
            names.setName(f"{POSTSCRIPT} (subset of Latin Modern Math {source_version})", 3, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 6:
            names.setName(POSTSCRIPT, 6, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID in (17, 22):
            names.setName("Regular", rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    names.setName(note, 10, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [POSTSCRIPT]
        top = cff.topDictIndex[0]
        top.FullName = FAMILY
        top.FamilyName = FAMILY


# Each font the build uses, and the built page whose MathML it must draw.
FONTS = {
    "chapter-math.woff2": "reader.html",           # the chapter (and reader-standalone.html)
    "chapter-math-captions.woff2": "embed.html",   # the figure captions of embed.html only
}


def make(source_path, page, out):
    """Writes the subset of `source_path` for the MathML of `page` to `out`."""
    chars = page_chars([page])
    source = TTFont(source_path)
    cmap = source.getBestCmap()
    missing = sorted(c for c in chars if ord(c) not in cmap and c not in (" ", "\u00a0"))
    if missing:
        print(f"{os.path.basename(page)}: not in the source font (the browser takes these from another font): "
              + " ".join(f"U+{ord(c):04X}" for c in missing), file=sys.stderr)
    kept = sorted(c for c in chars if ord(c) in cmap)
    version = source["name"].getDebugName(5).replace("Version ", "")

    options = subset.Options()
    options.layout_features = ["*"]    # ssty, dtls, flac and the rest, with the glyphs they reach
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False            # browsers ignore CFF hints at text sizes
    options.desubroutinize = True      # smaller after WOFF2's Brotli than the subroutinized charstrings
    options.drop_tables += ["FFTM"]    # FontForge's timestamp
    assert "MATH" not in options.drop_tables, "the MATH table is what lets brackets stretch"

    # The source's timestamp kept: the same inputs give the same bytes.
    font = TTFont(source_path, recalcTimestamp=False)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(c) for c in kept])
    sub.subset(font)
    if "MATH" not in font:
        sys.exit("the subset lost its MATH table")
    rename(font, version)
    font.flavor = "woff2"
    font.save(out)

    print(f"{out}: {os.path.getsize(out)} bytes, {len(kept)} characters, "
          f"{len(font.getGlyphOrder())} glyphs (with the MATH variants and the layout features' forms)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dist", default=os.path.join(ROOT, "dist"), help="the built site whose pages are read (default: dist/)")
    ap.add_argument("--font", default=DEBIAN_FONT, help=f"the source font (default: {DEBIAN_FONT}, from fonts-lmodern)")
    ap.add_argument("--out", default=HERE, help="where the fonts are written (default: site/fonts/)")
    args = ap.parse_args()
    for name, page in FONTS.items():
        make(args.font, os.path.join(args.dist, page), os.path.join(args.out, name))


if __name__ == "__main__":
    main()
