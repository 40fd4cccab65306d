import CFreeType
import TestExpectations
import Testing
@testable import UIKit

/// FreeType's own figures for a font file, read without our code.
private struct FreeTypeFigures {
    var unitsPerEm: CGFloat
    var ascender: CGFloat
    var descender: CGFloat
    var height: CGFloat
    var capHeight: CGFloat
    var xHeight: CGFloat
    var advances: [Character: CGFloat]

    init?(file: String) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else { return nil }
        defer { FT_Done_Face(face) }
        unitsPerEm = CGFloat(face.pointee.units_per_EM)
        ascender = CGFloat(face.pointee.ascender)
        descender = CGFloat(face.pointee.descender)
        height = CGFloat(face.pointee.height)
        func top(_ c: Character) -> CGFloat {
            FT_Load_Char(face, FT_ULong(c.unicodeScalars.first!.value), Int32(FT_LOAD_NO_SCALE))
            var box = FT_BBox()
            FT_Outline_Get_CBox(&face.pointee.glyph.pointee.outline, &box)
            return CGFloat(box.yMax)
        }
        capHeight = top("H")
        xHeight = top("x")
        advances = [:]
        for c in "Row 1: the quick brown fox jumps" {
            FT_Load_Char(face, FT_ULong(c.unicodeScalars.first!.value), Int32(FT_LOAD_NO_SCALE))
            advances[c] = CGFloat(face.pointee.glyph.pointee.advance.x)
        }
    }
}

private let dejaVuSansFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

@Suite struct FontTests {
    @Test func systemFontIsDejaVuSansWithFreeTypesMetrics() throws {
        let figures = try #require(FreeTypeFigures(file: dejaVuSansFile), "DejaVu Sans must be installed at \(dejaVuSansFile)")
        let font = UIFont.systemFont(ofSize: 17)
        expectEqual(font.familyName, "DejaVu Sans")
        expectEqual(font.fontName, "DejaVuSans")
        expectEqual(font.pointSize, 17)
        let scale = 17 / figures.unitsPerEm
        #expect(abs(font.ascender - figures.ascender * scale) < 1e-9)
        #expect(abs(font.descender - figures.descender * scale) < 1e-9)
        #expect(font.descender < 0)
        #expect(abs(font.lineHeight - figures.height * scale) < 1e-9)
        #expect(abs(font.capHeight - figures.capHeight * scale) < 1e-9)
        #expect(abs(font.xHeight - figures.xHeight * scale) < 1e-9)
        #expect(font.capHeight > font.xHeight)
    }

    @Test func unkernedWidthIsTheSumOfFreeTypesAdvances() throws {
        let figures = try #require(FreeTypeFigures(file: dejaVuSansFile))
        let text = "Row 1: the quick brown fox jumps"
        let expected = text.reduce(0) { $0 + figures.advances[$1]! } * 17 / figures.unitsPerEm
        let measured = text.size(withAttributes: [.font: UIFont.systemFont(ofSize: 17), .kern: 0])
        #expect(abs(measured.width - expected) < 1e-9)
        #expect(abs(measured.height - UIFont.systemFont(ofSize: 17).lineHeight) < 1e-9)
    }

    @Test func weightsMapToTheFamilysFaces() {
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .regular).fontName, "DejaVuSans")
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .medium).fontName, "DejaVuSans")
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .semibold).fontName, "DejaVuSans-Bold")
        expectEqual(UIFont.boldSystemFont(ofSize: 12).fontName, "DejaVuSans-Bold")
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .black).fontName, "DejaVuSans-Bold")
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .ultraLight).fontName, "DejaVuSans-ExtraLight")
        expectEqual(UIFont.systemFont(ofSize: 12, weight: .thin).fontName, "DejaVuSans-ExtraLight")
        expectEqual(UIFont.italicSystemFont(ofSize: 12).fontName, "DejaVuSans-Oblique")
        expectEqual(UIFont.monospacedSystemFont(ofSize: 12, weight: .regular).fontName, "DejaVuSansMono")
        expectEqual(UIFont.monospacedSystemFont(ofSize: 12, weight: .bold).fontName, "DejaVuSansMono-Bold")
    }

    @Test func textStylesHaveUIKitsDefaultSizes() {
        let expected: [(UIFont.TextStyle, CGFloat, String)] = [
            (.largeTitle, 34, "DejaVuSans"), (.title1, 28, "DejaVuSans"), (.title2, 22, "DejaVuSans"),
            (.title3, 20, "DejaVuSans"), (.headline, 17, "DejaVuSans-Bold"), (.body, 17, "DejaVuSans"),
            (.callout, 16, "DejaVuSans"), (.subheadline, 15, "DejaVuSans"), (.footnote, 13, "DejaVuSans"),
            (.caption1, 12, "DejaVuSans"), (.caption2, 11, "DejaVuSans"),
        ]
        for (style, size, name) in expected {
            let font = UIFont.preferredFont(forTextStyle: style)
            expectEqual(font.pointSize, size, "\(style.rawValue)")
            expectEqual(font.fontName, name, "\(style.rawValue)")
        }
    }

    @Test func fontsByNameAndSize() throws {
        let bold = try #require(UIFont(name: "DejaVuSans-Bold", size: 20))
        expectEqual(bold.familyName, "DejaVu Sans")
        #expect(UIFont(name: "DejaVu Serif", size: 10)?.fontName == "DejaVuSerif")
        #expect(UIFont(name: "dejavu sans mono bold", size: 10)?.fontName == "DejaVuSansMono-Bold")
        let resized = bold.withSize(40)
        #expect(resized.fontName == bold.fontName && resized.pointSize == 40)
        #expect(abs(resized.ascender - 2 * bold.ascender) < 1e-9)
        #expect(UIFont.familyNames.contains("DejaVu Sans Mono"))
        #expect(UIFont.fontNames(forFamilyName: "DejaVu Sans").contains("DejaVuSans-BoldOblique"))
    }

    @Test func unknownAndBadNamesGiveNil() {
        for name in ["", "Helvetica Neue Imaginary", "DejaVu", "DejaVuSans-Bold ", "\u{0}", String(repeating: "x", count: 10_000)] {
            #expect(UIFont(name: name, size: 12) == nil, "\(name.prefix(20))")
        }
        #expect(UIFont.fontNames(forFamilyName: "No Such Family").isEmpty)
    }

    @Test func badSizesAreSanitized() {
        expectEqual(UIFont.systemFont(ofSize: .nan).pointSize, 0)
        expectEqual(UIFont.systemFont(ofSize: -5).pointSize, 0)
        expectEqual(UIFont.systemFont(ofSize: .infinity).pointSize, UIFont.maximumPointSize)
        expectEqual("abc".size(withAttributes: [.font: UIFont.systemFont(ofSize: .nan)]), .zero)
    }

    @Test func cgFontGivesDesignUnits() throws {
        let font = try #require(CGFont("DejaVuSans"))
        expectEqual(font.unitsPerEm, 2048)
        #expect(font.ascent == 1901 && font.descent == -483)
        expectEqual(font.postScriptName, "DejaVuSans")
        #expect(font.glyphs(for: "A\u{4E2D}").first != 0)
        expectEqual(font.glyphs(for: "A\u{4E2D}").last, 0)
        #expect(CGFont("Nonexistent") == nil)
    }
}
