import TestExpectations
import Testing
@testable import UIKit

/// UIKit's classes are Foundation `NSObject`s, as on iOS: what real code
/// relies on (Tests/SourceCompatibilityFixtures/NSObjectUse.swift compiles
/// the same uses as a client would).
@MainActor
@Suite struct NSObjectTests {
    @Test func viewsAndLayersCompareAndHashByIdentity() {
        let a = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(a == a && a != b)
        #expect(!a.isEqual(b) && a.isEqual(a))
        var selected: Set<UIView> = [a, b, a]
        expectEqual(selected.count, 2)
        selected.remove(a)
        #expect(selected.contains(b) && !selected.contains(a))
        #expect(a.layer == a.layer && a.layer != b.layer)
        let host = UIView()
        host.addSubview(a)
        host.addSubview(b)
        expectEqual(host.layer.sublayers?.last, b.layer)
        let recognizers: Set<UIGestureRecognizer> = [UITapGestureRecognizer(), UITapGestureRecognizer()]
        expectEqual(recognizers.count, 2)
    }

    @Test func touchesServeAsDictionaryKeysForTheirWholeLife() {
        final class Tracker: UIView {
            var starts: [UITouch: CGPoint] = [:]
            var travelled: [CGFloat] = []
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
                for touch in touches { starts[touch] = touch.location(in: self) }
            }
            override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
                for touch in touches {
                    guard let start = starts.removeValue(forKey: touch) else { continue }
                    travelled.append(touch.location(in: self).x - start.x)
                }
            }
        }
        let window = makeWindow()
        let view = Tracker(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 100, y: 10)])
        synthesizer.touchMove([(fingers[0], CGPoint(x: 30, y: 10)), (fingers[1], CGPoint(x: 150, y: 10))])
        synthesizer.touchUp(fingers)
        expectEqual(view.travelled.sorted(), [20, 50])
        #expect(view.starts.isEmpty)
    }

    @Test func isKindAndIsMemberFollowTheClassTree() {
        let button = UIButton(type: .system)
        #expect(button.isKind(of: UIButton.self) && button.isKind(of: UIControl.self) && button.isKind(of: UIResponder.self))
        #expect(button.isKind(of: NSObject.self))
        #expect(!button.isKind(of: UIScrollView.self))
        #expect(button.isMember(of: UIButton.self) && !button.isMember(of: UIControl.self))
        #expect(UIScrollView().isKind(of: UIView.self))
        #expect(CALayer().isKind(of: NSObject.self))
        #expect(UIPanGestureRecognizer().isKind(of: UIGestureRecognizer.self))
        #expect(UIColor.red.isKind(of: NSObject.self))
    }

    @Test func castsToNSObjectAndBack() {
        let objects: [NSObject] = [UIButton(), CALayer(), UIColor.blue, UITapGestureRecognizer(), UIViewController()]
        expectEqual(objects.compactMap { $0 as? UIControl }.count, 1)
        expectEqual(objects.compactMap { $0 as? UIResponder }.count, 2)
        expectEqual((objects[2] as? UIColor), .blue)
    }

    @Test func descriptionsNameTheObject() {
        let view = UIView(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        view.tag = 7
        #expect("\(view)".hasPrefix("<UIView frame = ") && "\(view)".hasSuffix(" tag = 7>"))
        expectEqual(view.description, "\(view)")
        let recognizer = UITapGestureRecognizer()
        recognizer.name = "double"
        expectEqual("\(recognizer)", "<UITapGestureRecognizer \"double\" state = possible>")
        expectEqual("\(UIViewController())", "<UIViewController>")
        #expect(UIColor.red.description.hasPrefix("UIColor("))
        #expect("\(CALayer())".contains("CALayer"))
    }

    @Test func coloursAreEqualWhenTheirComponentsAre() {
        let a = UIColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        let b = UIColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        #expect(a == b && a.isEqual(b) && a.hash == b.hash)
        #expect(a != a.withAlphaComponent(0.5))
        #expect(!a.isEqual(UIView()))
        expectEqual(Set([a, b, UIColor.red]).count, 2)
    }

    @Test func fontsAreEqualWhenTheyAreTheSameFaceAtTheSameSize() {
        let a = UIFont.systemFont(ofSize: 17)
        let b = UIFont.systemFont(ofSize: 17)
        #expect(a == b && a.isEqual(b) && a.hash == b.hash)
        #expect(a != a.withSize(18))
        #expect(a != UIFont.boldSystemFont(ofSize: 17))  // Book and Bold are two faces of DejaVu Sans
        expectEqual(Set([a, b, a.withSize(12)]).count, 2)
        #expect((a as NSObject).isKind(of: UIFont.self))
        #expect(a.description.contains("17"))
    }

    /// Apple documents `isEqual(_:)` as the way to tell whether two images
    /// hold the same image data: equal pixels, size and scale.
    @Test func imagesAreEqualWhenTheirPixelsSizeAndScaleAre() throws {
        func image(red: UInt8, scale: CGFloat = 1) throws -> UIImage {
            var pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
            for index in stride(from: 0, to: pixels.count, by: 4) { pixels[index] = red }
            let context = try #require(CGContext(
                data: &pixels, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
            return UIImage(cgImage: try #require(context.makeImage()), scale: scale)
        }
        let a = try image(red: 10), b = try image(red: 10)
        #expect(a !== b && a == b && a.hash == b.hash)
        #expect(a != (try image(red: 11)))
        #expect(a != (try image(red: 10, scale: 2)))
        expectEqual(UIImage(size: CGSize(width: 4, height: 4)), UIImage(size: CGSize(width: 4, height: 4)))
        #expect(a != UIImage(size: a.size))
        expectEqual(Set([a, b]).count, 1)
    }

    @Test func pathsAreEqualOnlyToThemselves() {
        let a = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(a == a && a != b)
        #expect((b as NSObject).isMember(of: UIBezierPath.self))
    }
}
