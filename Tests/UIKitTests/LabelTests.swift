import Foundation
import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct LabelTests {
    private func label(_ text: String?, frame: CGRect = CGRect(x: 0, y: 0, width: 200, height: 40)) -> UILabel {
        let label = UILabel(frame: frame)
        label.text = text
        return label
    }

    private func render(_ label: UILabel, scale: CGFloat = 1) -> TextBitmap {
        renderText(width: label.bounds.width, height: label.bounds.height, scale: scale) { label.draw(label.bounds) }
    }

    @Test func defaultsAreUIKits() {
        let label = UILabel()
        expectEqual(label.font, UIFont.systemFont(ofSize: 17))
        expectEqual(label.textColor, .black)
        expectEqual(label.textAlignment, .natural)
        expectEqual(label.lineBreakMode, .byTruncatingTail)
        expectEqual(label.numberOfLines, 1)
        #expect(!label.isUserInteractionEnabled)
        #expect(label.text == nil && label.attributedText == nil)
        label.font = nil
        expectEqual(label.font, UIFont.systemFont(ofSize: 17))
    }

    @Test func textAndAttributedTextAreOneContent() {
        let label = label("plain")
        expectEqual(label.attributedText?.string, "plain")
        #expect(label.attributedText?.attribute(.font, at: 0, effectiveRange: nil) as? UIFont == label.font)
        label.attributedText = NSAttributedString(string: "rich", attributes: [.foregroundColor: UIColor.red])
        expectEqual(label.text, "rich")
        label.text = nil
        #expect(label.attributedText == nil)
    }

    @Test func intrinsicSizeIsTheTextsSizeInWholePoints() {
        let label = label("Row 1: the quick brown fox jumps")
        let size = "Row 1: the quick brown fox jumps".size(withAttributes: [.font: label.font!])
        expectEqual(label.intrinsicContentSize, CGSize(width: ceil(size.width), height: ceil(size.height)))
        expectEqual(self.label("").intrinsicContentSize, .zero)
        expectEqual(self.label(nil).intrinsicContentSize, .zero)
        expectEqual(UIView().intrinsicContentSize, CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric))
    }

    @Test func sizeThatFitsWrapsMultiLineLabels() {
        let label = label("The quick brown fox jumps over the lazy dog")
        let oneLine = label.sizeThatFits(CGSize(width: 100, height: 1000))
        #expect(oneLine.width > 100, "a one-line label takes its whole text's width")
        label.numberOfLines = 0
        let wrapped = label.sizeThatFits(CGSize(width: 100, height: 1000))
        #expect(wrapped.width <= 100)
        expectEqual(wrapped.height, ceil(5 * label.font.lineHeight), "The quick / brown fox / jumps over / the lazy / dog")
        label.numberOfLines = 2
        expectEqual(label.sizeThatFits(CGSize(width: 100, height: 1000)).height, ceil(2 * label.font.lineHeight))
        label.sizeToFit()
        expectEqual(label.bounds.size, label.sizeThatFits(label.bounds.size))
    }

    @Test func textIsDrawnCentredVertically() throws {
        let label = label("Hamburg", frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let bitmap = render(label)
        bitmap.saveForViewing("label-centred")
        let ink = try #require(bitmap.inkBounds)
        let lineTop = (100 - label.font.lineHeight) / 2
        #expect(ink.minY >= lineTop.rounded(.down))
        #expect(ink.maxY <= (lineTop + label.font.lineHeight).rounded(.up))
        #expect(ink.minX < 3)
    }

    @Test(arguments: [NSTextAlignment.left, .center, .right, .natural, .justified])
    func alignment(_ alignment: NSTextAlignment) throws {
        let label = label("Hi", frame: CGRect(x: 0, y: 0, width: 200, height: 30))
        label.textAlignment = alignment
        let ink = try #require(render(label).inkBounds)
        let width = "Hi".size(withAttributes: [.font: label.font!]).width
        switch alignment {
        case .center: #expect(abs(ink.midX - 100) < 2, "\(ink)")
        case .right: #expect(ink.maxX > 200 - 3 && ink.minX > 200 - width - 2, "\(ink)")
        default: #expect(ink.minX < 3 && ink.maxX < width + 2, "\(ink)")
        }
    }

    @Test func aTruncatedLabelDrawsTheEllipsisInsideItsBounds() throws {
        let label = label("The quick brown fox jumps over the lazy dog", frame: CGRect(x: 0, y: 0, width: 120, height: 30))
        let layout = label.textLayout(in: label.bounds.size, lines: 1)
        #expect(layout.lineStrings.count == 1 && layout.lineStrings[0].hasSuffix("…"))
        let ink = try #require(render(label).inkBounds)
        #expect(ink.maxX <= 121)
        label.lineBreakMode = .byClipping
        expectEqual(label.textLayout(in: label.bounds.size, lines: 1).lineStrings, ["The quick brown fox jumps over the lazy dog"])
        let clipped = try #require(render(label).inkBounds)
        #expect(clipped.maxX <= 120, "clipping stops at the bounds")
    }

    @Test func adjustsFontSizeToFitWidthShrinksDownToTheMinimumScale() {
        let text = "The quick brown fox jumps"
        let label = label(text, frame: CGRect(x: 0, y: 0, width: 150, height: 30))
        let full = text.size(withAttributes: [.font: label.font!]).width
        label.adjustsFontSizeToFitWidth = true
        #expect(label.textLayout(in: label.bounds.size, lines: 1).isTruncated, "minimumScaleFactor 0 does not shrink")
        label.minimumScaleFactor = 0.5
        let fitted = label.textLayout(in: label.bounds.size, lines: 1)
        #expect(!fitted.isTruncated)
        #expect(fitted.size.width <= 150 && fitted.size.width > 150 * 0.97, "\(fitted.size.width) of \(full)")
        label.minimumScaleFactor = 0.9
        let floor = label.textLayout(in: label.bounds.size, lines: 1)
        #expect(floor.isTruncated, "at 0.9 it still does not fit: truncated at the smallest size")
        #expect(abs(floor.styles[0].font.pointSize - 17 * 0.9) < 1e-9)
    }

    @Test func shadowIsDrawnOffsetInItsColour() throws {
        let label = label("I", frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        label.font = .boldSystemFont(ofSize: 30)
        label.shadowColor = .red
        label.shadowOffset = CGSize(width: 6, height: 0)
        let bitmap = render(label)
        bitmap.saveForViewing("label-shadow")
        let ink = try #require(bitmap.inkBounds)
        let row = Int(ink.midY)
        let colours = (0..<40).map { bitmap.pixel($0, row) }
        #expect(colours.contains { $0.r == 0 && $0.g == 0 }, "black text")
        #expect(colours.contains { $0.r == 255 && $0.g == 0 }, "red shadow to its right")
        let firstRed = colours.lastIndex { $0.r == 255 && $0.g == 0 }!, lastBlack = colours.lastIndex { $0.r == 0 }!
        #expect(firstRed > lastBlack)
    }

    @Test func highlightedAndDisabledColours() throws {
        let label = label("H", frame: CGRect(x: 0, y: 0, width: 30, height: 30))
        label.font = .boldSystemFont(ofSize: 24)
        label.highlightedTextColor = .blue
        label.isHighlighted = true
        let bitmap = render(label)
        var darkest = (r: UInt8(255), g: UInt8(255), b: UInt8(255), a: UInt8(255))
        for y in 0..<30 { for x in 0..<30 where bitmap.pixel(x, y).r < darkest.r { darkest = bitmap.pixel(x, y) } }
        #expect(darkest.r == 0 && darkest.b == 255)
        label.isHighlighted = false
        label.isEnabled = false
        let dim = render(label)
        var minimum: UInt8 = 255
        for y in 0..<30 { for x in 0..<30 { minimum = min(minimum, dim.pixel(x, y).r) } }
        #expect(minimum > 100 && minimum < 200, "dimmed: \(minimum)")
    }

    /// The colours found in the bitmap's text, opaque ones only.
    private func strongestInk(_ bitmap: TextBitmap) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        var darkest = (r: UInt8(255), g: UInt8(255), b: UInt8(255), a: UInt8(255))
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x, y)
                if Int(p.r) + Int(p.g) + Int(p.b) < Int(darkest.r) + Int(darkest.g) + Int(darkest.b) { darkest = p }
            }
        }
        return darkest
    }

    // A label drawn once and then given a new colour, font, alignment or
    // shadow colour draws with the new one, as UIKit's does: the text laid
    // out for the first drawing must not keep the old attributes.
    @Test func anAttributeChangedAfterDrawingIsDrawnAndMarksTheLabel() throws {
        let label = label("W", frame: CGRect(x: 0, y: 0, width: 120, height: 40))
        label.font = .boldSystemFont(ofSize: 24)
        let black = strongestInk(render(label))
        #expect(black.r < 40 && black.g < 40 && black.b < 40)

        label.layer.displayIfNeeded()
        label.textColor = .blue
        #expect(label.layer.needsDisplay())
        let blue = strongestInk(render(label))
        #expect(blue.b == 255 && blue.r < 40, "drawn in the new colour: \(blue)")

        let small = try #require(render(label).inkBounds)
        label.layer.displayIfNeeded()
        label.font = .boldSystemFont(ofSize: 34)
        #expect(label.layer.needsDisplay())
        let large = try #require(render(label).inkBounds)
        #expect(large.height > small.height + 5)

        label.layer.displayIfNeeded()
        label.textAlignment = .right
        #expect(label.layer.needsDisplay())
        let right = try #require(render(label).inkBounds)
        #expect(right.maxX > 110 && right.minX > large.minX + 50)

        label.shadowColor = .red
        label.shadowOffset = CGSize(width: -30, height: 0)
        _ = render(label)
        label.layer.displayIfNeeded()
        label.shadowColor = .green
        #expect(label.layer.needsDisplay())
        let shadowed = render(label)
        let row = Int(right.midY)
        let colours = (0..<120).map { shadowed.pixel($0, row) }
        #expect(colours.contains { $0.g == 255 && $0.r < 40 && $0.b < 40 }, "the new shadow colour")
        #expect(!colours.contains { $0.r == 255 && $0.g < 40 }, "not the old one")
    }

    @Test func changingTheTextMarksTheLabelForDisplay() {
        let label = label("a")
        label.layer.displayIfNeeded()
        #expect(!label.layer.needsDisplay())
        label.text = "b"
        #expect(label.layer.needsDisplay())
    }

    @Test func aHundredThousandCharactersInAMultiLineLabel() throws {
        let label = label(String(repeating: "lorem ipsum ", count: 8_334), frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        label.numberOfLines = 0
        let layout = label.textLayout(in: label.bounds.size, lines: 0)
        #expect(layout.isTruncated)
        #expect(layout.size.height <= 200)
        let ink = try #require(render(label).inkBounds)
        #expect(CGRect(x: -1, y: -1, width: 302, height: 202).contains(ink))
    }

    /// A label measured (sizeToFit) and then drawn in its bounds reuses the
    /// measured layout, re-aligned; the result must be the layout a fresh
    /// label makes for those bounds, line for line.
    @Test func aMeasuredLabelDrawsTheLayoutAFreshLabelWould() {
        let text = "Row 1: the quick brown fox\nJumps\n\nover the lazy dog"
        let alignments: [NSTextAlignment] = [.left, .center, .right, .natural, .justified]
        for alignment in alignments {
            for extraWidth: CGFloat in [0, 33, -40] {
                let measured = label(text)
                measured.numberOfLines = 0
                measured.textAlignment = alignment
                measured.sizeToFit()
                let size = CGSize(width: measured.bounds.width + extraWidth, height: measured.bounds.height + 20)
                let fresh = label(text)
                fresh.numberOfLines = 0
                fresh.textAlignment = alignment
                let reused = measured.textLayout(in: size, lines: 0), made = fresh.textLayout(in: size, lines: 0)
                expectEqual(reused.lineStrings, made.lineStrings, "\(alignment.rawValue) \(extraWidth)")
                expectEqual(reused.lines.map(\.x), made.lines.map(\.x), "\(alignment.rawValue) \(extraWidth)")
                expectEqual(reused.lines.map(\.baseline), made.lines.map(\.baseline))
                #expect(reused.size == made.size && reused.isTruncated == made.isTruncated)
            }
        }
        let indented = NSMutableParagraphStyle()
        indented.alignment = .center
        indented.firstLineHeadIndent = 10
        indented.tailIndent = -30
        let attributed = NSAttributedString(string: "Indented and centred", attributes: [.paragraphStyle: indented])
        let measured = UILabel(), fresh = UILabel()
        measured.attributedText = attributed
        fresh.attributedText = attributed
        measured.sizeToFit()
        let reused = measured.textLayout(in: measured.bounds.size, lines: 1), made = fresh.textLayout(in: measured.bounds.size, lines: 1)
        #expect(reused.lineStrings == made.lineStrings && reused.lines.map(\.x) == made.lines.map(\.x))
        #expect(reused.isTruncated, "the tail indent leaves less room than the measured width")
    }
}
