import Foundation
import Testing
@testable import UIKit

/// A white bitmap with UIKit's user space (y down, `scale` pixels a point),
/// current while `body` draws.
@MainActor
func renderText(width: CGFloat, height: CGFloat, scale: CGFloat = 1, _ body: () -> Void) -> TextBitmap {
    let context = CGContext(data: nil, width: Int(width * scale), height: Int(height * scale), bitsPerComponent: 8,
                            bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    context.setFillColor(UIColor.white.cgColor)
    context.fill(CGRect(x: 0, y: 0, width: context.width, height: context.height))
    context.translateBy(x: 0, y: CGFloat(context.height))
    context.scaleBy(x: scale, y: -scale)
    UIGraphicsPushContext(context)
    body()
    UIGraphicsPopContext()
    return TextBitmap(context: context)
}

/// The pixels of a rendered bitmap, read back.
struct TextBitmap {
    let context: CGContext
    var width: Int { context.width }
    var height: Int { context.height }

    func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = context.data!.assumingMemoryBound(to: UInt8.self) + y * context.bytesPerRow + x * 4
        return (p[0], p[1], p[2], p[3])
    }

    func isInk(_ x: Int, _ y: Int) -> Bool {
        let p = pixel(x, y)
        return p.r != 255 || p.g != 255 || p.b != 255
    }

    /// The smallest pixel rectangle holding every pixel that is not white.
    var inkBounds: CGRect? {
        var box: CGRect?
        for y in 0..<height {
            for x in 0..<width where isInk(x, y) {
                box = box?.union(CGRect(x: x, y: y, width: 1, height: 1)) ?? CGRect(x: x, y: y, width: 1, height: 1)
            }
        }
        return box
    }

    var inkCount: Int {
        var n = 0
        for y in 0..<height { for x in 0..<width where isInk(x, y) { n += 1 } }
        return n
    }

    /// Writes the bitmap as a PNG under $OPENUIKIT_TEST_ARTIFACTS (when set), to look at.
    func saveForViewing(_ name: String) {
        guard let directory = ProcessInfo.processInfo.environment["OPENUIKIT_TEST_ARTIFACTS"] else { return }
        var rows = Data()
        for y in 0..<height {
            rows.append(0)
            rows.append(Data(bytes: context.data! + y * context.bytesPerRow, count: width * 4))
        }
        try? rows.write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).rgba-\(width)x\(height)"))
    }
}

/// `rect` in pixels, grown by `margin` pixels of anti-aliasing on every side.
private func pixels(_ rect: CGRect, scale: CGFloat = 1, margin: CGFloat = 1) -> CGRect {
    CGRect(x: rect.minX * scale, y: rect.minY * scale, width: rect.width * scale, height: rect.height * scale)
        .insetBy(dx: -margin, dy: -margin)
}

@MainActor
@Suite struct TextDrawingTests {
    let font = UIFont.systemFont(ofSize: 17)

    @Test func stringInkLiesInsideItsMeasuredBounds() throws {
        let text = "Row 7: the quick brown fox jumps"
        let attributes: [NSAttributedString.Key: Any] = [.font: font]
        let origin = CGPoint(x: 20.3, y: 10.6)
        let size = text.size(withAttributes: attributes)
        for scale in [1, 2, 3] as [CGFloat] {
            let bitmap = renderText(width: 340, height: 40, scale: scale) { text.draw(at: origin, withAttributes: attributes) }
            bitmap.saveForViewing("string-at-\(Int(scale))x")
            let ink = try #require(bitmap.inkBounds)
            #expect(pixels(CGRect(origin: origin, size: size), scale: scale).contains(ink), "\(scale)×: \(ink)")
            // The ink fills the measured box: "R" starts at its left, "j" and "p" reach below the baseline.
            #expect(ink.minX <= (origin.x + 2) * scale)
            #expect(ink.maxX >= (origin.x + size.width - 3) * scale)
            #expect(ink.maxY > (origin.y + font.ascender + 1) * scale)
        }
    }

    @Test func wrappedTextStaysInItsRect() throws {
        let text = "The quick brown fox jumps over the lazy dog, again and again."
        let rect = CGRect(x: 10, y: 5, width: 120, height: 200)
        let attributes: [NSAttributedString.Key: Any] = [.font: font]
        let measured = text.boundingRect(with: rect.size, options: .usesLineFragmentOrigin, attributes: attributes, context: nil)
        let bitmap = renderText(width: 150, height: 220) { text.draw(in: rect, withAttributes: attributes) }
        bitmap.saveForViewing("string-in-rect")
        let ink = try #require(bitmap.inkBounds)
        #expect(measured.width <= rect.width)
        // "The quick / brown fox / jumps over / the lazy dog, / again and / again."
        #expect(abs(measured.height - 6 * font.lineHeight) < 1e-9, "six lines")
        #expect(pixels(CGRect(origin: rect.origin, size: measured.size)).contains(ink))
        #expect(ink.maxY > rect.minY + 5 * font.lineHeight, "the sixth line is drawn")
    }

    @Test func foregroundColorAndAttributedRuns() throws {
        let text = NSMutableAttributedString(string: "red blue", attributes: [.font: UIFont.boldSystemFont(ofSize: 30),
                                                                            .foregroundColor: UIColor.red])
        text.addAttribute(.foregroundColor, value: UIColor.blue, range: NSRange(location: 4, length: 4))
        let bitmap = renderText(width: 200, height: 50) { text.draw(at: CGPoint(x: 5, y: 5)) }
        bitmap.saveForViewing("attributed-colours")
        let split = 5 + "red ".size(withAttributes: [.font: UIFont.boldSystemFont(ofSize: 30)]).width
        var reds = 0, blues = 0, wrong = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.isInk(x, y) {
                let p = bitmap.pixel(x, y)
                if p.r == 255 && p.b < 255 && p.g == p.b { CGFloat(x) < split ? (reds += 1) : (wrong += 1) }
                else if p.b == 255 && p.r < 255 && p.g == p.r { CGFloat(x) >= split ? (blues += 1) : (wrong += 1) }
                else { wrong += 1 }
            }
        }
        #expect(reds > 100 && blues > 100 && wrong == 0, "\(reds) \(blues) \(wrong)")
    }

    @Test func emptyAndControlOnlyStringsDrawNothing() {
        for text in ["", "\u{0}\u{7}\u{1B}\u{200B}", "\n\n"] {
            let bitmap = renderText(width: 40, height: 40) { text.draw(at: CGPoint(x: 5, y: 5), withAttributes: [.font: font]) }
            #expect(bitmap.inkBounds == nil)
        }
    }

    @Test func drawingWithoutAContextDoesNothing() {
        #expect(UIGraphicsGetCurrentContext() == nil)
        "text".draw(at: .zero, withAttributes: nil)
        UIGraphicsPopContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
    }
}
