import TestExpectations
import Testing
@testable import UIKit

/// Line breaking and truncation as strings of lines. The font is DejaVu
/// Sans Mono, where every character has the same advance and no pair is
/// kerned, so a width is a number of characters.
@Suite struct TextLayoutTests {
    static let mono = UIFont.monospacedSystemFont(ofSize: 10, weight: .regular)
    static let column = "M".size(withAttributes: [.font: mono]).width

    private func lines(_ text: String, columns: Int? = 10, maximumLines: Int = 0, wrap: NSLineBreakMode = .byWordWrapping,
                       last: NSLineBreakMode = .byWordWrapping) -> [String] {
        layout(text, columns: columns, maximumLines: maximumLines, wrap: wrap, last: last).lineStrings
    }

    private func layout(_ text: String, columns: Int? = 10, maximumLines: Int = 0, wrap: NSLineBreakMode = .byWordWrapping,
                        last: NSLineBreakMode = .byWordWrapping, alignment: NSTextAlignment = .natural,
                        height: CGFloat = .infinity) -> TextLayout {
        let paragraph = NSMutableParagraphStyle()
        paragraph.lineBreakMode = wrap
        paragraph.alignment = alignment
        var container = TextContainer()
        container.width = columns.map { CGFloat($0) * Self.column + Self.column / 4 } ?? .infinity
        container.height = height
        container.maximumLines = maximumLines
        container.lastLineMode = last
        container.truncatesParagraphs = false
        return TextLayout(text, style: .init(font: Self.mono, color: .black, kern: nil, paragraph: paragraph), container: container)
    }

    let fox = "The quick brown fox jumps over the lazy dog"

    /// A layout made in a spare layout's memory is the layout a new one
    /// would be, reuses that memory when nothing else holds it, and leaves a
    /// layout that is still held as it was.
    @Test func aLayoutMadeInASparesMemoryMatchesANewOneAndLeavesHeldOnesAlone() {
        let style = TextLayout.Style(font: Self.mono, color: .black, kern: nil, paragraph: .default)
        var container = TextContainer()
        container.width = 10 * Self.column + Self.column / 4
        container.maximumLines = 2
        container.lastLineMode = .byTruncatingTail
        container.truncatesParagraphs = false

        var spare: TextLayout? = TextLayout(fox, style: style, container: container)
        let memory = spare!.glyphs.glyphs.withUnsafeBufferPointer { $0.baseAddress }
        let reused = TextLayout("Row 22 of the table", style: style, container: container, reusing: &spare)
        #expect(spare == nil, "the spare is taken")
        let fresh = TextLayout("Row 22 of the table", style: style, container: container)
        expectEqual(reused.lineStrings, fresh.lineStrings)
        expectEqual(reused.lineStrings, ["Row 22 of", "the table"])
        expectEqual(reused.size, fresh.size)
        expectEqual(reused.glyphs.glyphs.withUnsafeBufferPointer { $0.baseAddress }, memory, "drawn in the spare's memory")

        // A spare that is still shown elsewhere is copied, not overwritten.
        let shown = TextLayout(fox, style: style, container: container)
        spare = shown
        let other = TextLayout("Row 7", style: style, container: container, reusing: &spare)
        expectEqual(other.lineStrings, ["Row 7"])
        expectEqual(shown.lineStrings, ["The quick", "brown fox…"])
    }

    @Test func monospacedColumnsAreEqual() {
        #expect(abs("MMMMMMMMMM".size(withAttributes: [.font: Self.mono]).width - 10 * Self.column) < 1e-9)
        #expect(abs("iiiiiiiiii".size(withAttributes: [.font: Self.mono]).width - 10 * Self.column) < 1e-9)
    }

    @Test func wordWrapBreaksAfterSpacesWhichHang() {
        expectEqual(lines(fox), ["The quick", "brown fox", "jumps over", "the lazy", "dog"])
    }

    @Test func wordWrapBreaksAWordWiderThanTheLineBetweenCharacters() {
        expectEqual(lines("abcdefghijklmnopqrstuvwxyz end"), ["abcdefghij", "klmnopqrst", "uvwxyz end"])
    }

    @Test func wordWrapBreaksAfterHyphens() {
        expectEqual(lines("well-known-facts here"), ["well-", "known-", "facts here"])
    }

    @Test func charWrapBreaksAnywhere() {
        expectEqual(lines(fox, wrap: .byCharWrapping), ["The quick", "brown fox", "jumps over", "the lazy d", "og"])
    }

    @Test func paragraphsEndAtEveryKindOfLineBreak() {
        expectEqual(lines("one\ntwo\r\nthree\rfour\u{2029}five\u{2028}six", columns: nil), ["one", "two", "three", "four", "five", "six"])
        expectEqual(lines("a\n\nb", columns: nil), ["a", "", "b"])
    }

    @Test func numberOfLinesLimitsWrappedLines() {
        expectEqual(lines(fox, maximumLines: 2), ["The quick", "brown fox"])
        expectEqual(lines(fox, maximumLines: 0).count, 5)
        expectEqual(lines(fox, maximumLines: 9).count, 5)
    }

    @Test func truncatingTheTail() {
        expectEqual(lines(fox, maximumLines: 1, last: .byTruncatingTail), ["The quick…"])
        expectEqual(lines(fox, maximumLines: 2, last: .byTruncatingTail), ["The quick", "brown fox…"])
        expectEqual(lines(fox, maximumLines: 3, last: .byTruncatingTail), ["The quick", "brown fox", "jumps ove…"])
    }

    @Test func truncatingTheHead() {
        expectEqual(lines(fox, maximumLines: 1, last: .byTruncatingHead), ["…lazy dog"])  // "…" and nine columns; the space before "lazy" is dropped
        expectEqual(lines(fox, maximumLines: 2, last: .byTruncatingHead), ["The quick", "…lazy dog"])
    }

    @Test func truncatingTheMiddle() {
        expectEqual(lines(fox, maximumLines: 1, last: .byTruncatingMiddle), ["The q… dog"])
        expectEqual(lines("abcdefghijklmnopqrstuvwxyz", maximumLines: 1, last: .byTruncatingMiddle), ["abcde…wxyz"])
    }

    @Test func textThatFitsIsNotTruncated() {
        let layout = layout("short", maximumLines: 1, last: .byTruncatingTail)
        expectEqual(layout.lineStrings, ["short"])
        #expect(!layout.isTruncated)
        expectEqual(layout.lines[0].width, 5 * Self.column)
    }

    @Test func aLastLineWithMoreParagraphsAfterItIsTruncated() {
        expectEqual(lines("first\nsecond", maximumLines: 1, last: .byTruncatingTail), ["first…"])
        expectEqual(lines("first\nsecond", maximumLines: 1, last: .byWordWrapping), ["first"])
    }

    @Test func clippingKeepsTheWholeLastLine() {
        let layout = layout(fox, maximumLines: 1, last: .byClipping)
        expectEqual(layout.lineStrings, [fox])
    }

    @Test func singleLineWordWrapShowsTheWordsThatFit() {
        expectEqual(lines(fox, maximumLines: 1, last: .byWordWrapping), ["The quick"])
        expectEqual(lines(fox, maximumLines: 1, last: .byCharWrapping), ["The quick"])
        expectEqual(lines("abcdefghijklmnop", maximumLines: 1, last: .byCharWrapping), ["abcdefghij"])
    }

    @Test func theHeightLimitsLinesAndTruncatesTheLastThatFits() {
        let lineHeight = Self.mono.lineHeight
        let layout = layout(fox, last: .byTruncatingTail, height: lineHeight * 2.5)
        expectEqual(layout.lineStrings, ["The quick", "brown fox…"])
        #expect(layout.isTruncated)
    }

    @Test func alignmentPlacesLinesInTheWidth() {
        let width = 10 * Self.column + Self.column / 4
        let left = layout("abcd", alignment: .left), natural = layout("abcd", alignment: .natural)
        let center = layout("abcd", alignment: .center), right = layout("abcd", alignment: .right)
        #expect(left.lines[0].x == 0 && natural.lines[0].x == 0)
        #expect(abs(center.lines[0].x - (width - 4 * Self.column) / 2) < 1e-9)
        #expect(abs(right.lines[0].x - (width - 4 * Self.column)) < 1e-9)
    }

    @Test func justifiedLinesFillTheWidthExceptEachParagraphsLast() {
        let width = 10 * Self.column + Self.column / 4
        let layout = layout("aa bb cc dd ee", alignment: .justified)
        expectEqual(layout.lineStrings, ["aa bb cc", "dd ee"])
        #expect(abs(layout.lines[0].width - width) < 1e-9)
        #expect(abs(layout.lines[0].extraPerSpace - (width - 8 * Self.column) / 2) < 1e-9)
        expectEqual(layout.lines[1].extraPerSpace, 0)
    }

    @Test func linesStackByTheFontsLineHeight() {
        let layout = layout(fox)
        let lineHeight = Self.mono.lineHeight
        for (i, line) in layout.lines.enumerated() {
            #expect(abs(line.top - CGFloat(i) * lineHeight) < 1e-9)
            #expect(abs(line.baseline - (line.top + Self.mono.ascender)) < 1e-9)
        }
        #expect(abs(layout.size.height - 5 * lineHeight) < 1e-9)
    }

    @Test func tabsMoveToTheNextStop() {
        let layout = layout("a\tb", columns: nil)
        #expect(abs(layout.size.width - (NSParagraphStyle.defaultTabInterval + Self.column)) < 1e-9)
    }

    // MARK: Bad input

    @Test func emptyStringHasNoLinesAndNoSize() {
        #expect(layout("").lines.isEmpty)
        expectEqual("".size(withAttributes: nil), .zero)
        expectEqual(NSAttributedString(string: "").size(), .zero)
    }

    @Test func aHundredThousandCharactersWrap() {
        let text = String(repeating: "word ", count: 20_000)
        let layout = layout(text)
        expectEqual(layout.lines.count, 10_000)
        #expect(layout.lineStrings.allSatisfy { $0 == "word word" })
        let single = self.layout(text, maximumLines: 1, last: .byTruncatingMiddle)
        expectEqual(single.lineStrings, ["word… word"])
    }

    @Test func controlCharactersNeitherBreakNorShow() {
        expectEqual(lines("ab\u{0}\u{7}cd\u{1B}ef", columns: nil), ["ab\u{0}\u{7}cd\u{1B}ef"])
        let clean = layout("abcdef", columns: nil).size.width
        expectEqual(layout("ab\u{0}\u{7}cd\u{1B}ef", columns: nil).size.width, clean)
    }

    @Test func zeroAndNegativeWidthsStillMakeProgress() {
        expectEqual(lines("abc", columns: 0), ["a", "b", "c"])
        var container = TextContainer()
        container.width = -50
        let layout = TextLayout("ab", style: .init(font: Self.mono, color: .black, kern: nil, paragraph: .default), container: container)
        expectEqual(layout.lineStrings, ["a", "b"])
    }
}
