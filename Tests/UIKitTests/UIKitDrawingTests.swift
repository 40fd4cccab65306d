import TestExpectations
import Testing
import DrawingTestSupport
@testable import UIKit

@MainActor
@Suite(.serialized) struct UIKitDrawingTests {
    init() { UIApplication.shared.resetForTesting() }

    @Test func rendererDrawsInPointsWithYDownAtItsScale() {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 5), format: format)
        var current: CGContext?
        let image = renderer.image { context in
            current = UIGraphicsGetCurrentContext()
            #expect(current === context.cgContext)
            expectEqual(context.cgContext.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 10))
            UIColor.red.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 5, height: 1))      // top-left strip
        }
        #expect(UIGraphicsGetCurrentContext() == nil)                    // popped after the actions
        #expect(image.size == CGSize(width: 10, height: 5) && image.scale == 2)
        let cg = image.cgImage!
        #expect(cg.width == 20 && cg.height == 10)
        #expect(rgba(cg, 0, 0) == [255, 0, 0, 255] && rgba(cg, 9, 1) == [255, 0, 0, 255])
        #expect(rgba(cg, 10, 0) == [0, 0, 0, 0] && rgba(cg, 0, 2) == [0, 0, 0, 0])
    }

    @Test func bezierPathsFillStrokeAndHitTest() {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let image = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40), format: format).image { _ in
            UIColor.white.setFill()
            UIBezierPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40)).fill()
            UIColor.blue.setFill()
            UIBezierPath(ovalIn: CGRect(x: 5, y: 5, width: 20, height: 20)).fill()
            let line = UIBezierPath()
            line.move(to: CGPoint(x: 0, y: 35)); line.addLine(to: CGPoint(x: 40, y: 35))
            line.lineWidth = 4
            UIColor.red.setStroke()
            line.stroke()
        }.cgImage!
        expectEqual(rgba(image, 15, 15), [0, 0, 255, 255])
        expectEqual(rgba(image, 5, 5), [255, 255, 255, 255])
        #expect(rgba(image, 20, 33) == [255, 0, 0, 255] && rgba(image, 20, 36) == [255, 0, 0, 255])
        #expect(rgba(image, 20, 32) == [255, 255, 255, 255] && rgba(image, 20, 37) == [255, 255, 255, 255])

        let rounded = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), byRoundingCorners: [.topLeft], cornerRadii: CGSize(width: 10, height: 10))
        #expect(!rounded.contains(CGPoint(x: 1, y: 1)))          // the rounded corner
        #expect(rounded.contains(CGPoint(x: 19, y: 1)))          // a square one
        expectEqual(rounded.bounds, CGRect(x: 0, y: 0, width: 20, height: 20))
        rounded.apply(CGAffineTransform(translationX: 5, y: 0))
        expectEqual(rounded.bounds, CGRect(x: 5, y: 0, width: 20, height: 20))
        // Clockwise on screen: from 0 to π/2 passes below the centre (y down).
        let arc = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(abs(arc.currentPoint.y - 10) < 1e-9 && arc.cgPath.boundingBoxOfPath.maxX <= 10.000001)
        #expect(arc.cgPath.boundingBoxOfPath.minY > -1e-9)
    }

    @Test func imagesRoundTripThroughPNGAndJPEG() throws {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 16, height: 8), format: format)
        let png = renderer.pngData { context in
            UIColor(red: 1, green: 0, blue: 0, alpha: 0.5).setFill()
            context.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
            UIColor.green.setFill()
            context.fill(CGRect(x: 8, y: 0, width: 8, height: 8))
        }
        let decoded = try #require(UIImage(data: png))
        expectEqual(decoded.size, CGSize(width: 16, height: 8))
        #expect(close(rgba(decoded.cgImage!, 2, 2), [128, 0, 0, 128], tolerance: 1))
        expectEqual(rgba(decoded.cgImage!, 12, 2), [0, 255, 0, 255])
        let jpeg = try #require(decoded.jpegData(compressionQuality: 0.9))
        let fromJPEG = try #require(UIImage(data: jpeg))
        #expect(close(rgba(fromJPEG.cgImage!, 12, 4), [0, 255, 0, 255], tolerance: 12))
        // A file with @2x in its name has scale 2.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("drawing-test@2x.png").path
        try #require(FileManager.default.createFile(atPath: path, contents: png))
        #expect(UIImage(contentsOfFile: path)?.size == CGSize(width: 8, height: 4))
        #expect(UIImage(contentsOfFile: "/nonexistent.png") == nil)
    }

    @Test func corruptTruncatedAndHugeImagesGiveClearErrors() throws {
        let png = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 20)).pngData { context in
            context.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        }
        #expect(UIImage(data: png.prefix(png.count / 2)) == nil)
        #expect(throws: CGImageCodecError.self) { try CGImage.decode(png.prefix(png.count / 2)) }
        #expect(throws: CGImageCodecError.unknownFormat) { try CGImage.decode(Data("hello".utf8)) }
        var corrupt = png
        corrupt[40] ^= 0xFF
        #expect(throws: CGImageCodecError.self) { try CGImage.decode(corrupt) }
        // A PNG header claiming 100000×100000 pixels: refused before allocating.
        var huge = Data(png.prefix(33))
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(throws: CGImageCodecError.self) { try CGImage.decode(huge) }
        let jpeg = try #require(UIImage(data: png)?.jpegData(compressionQuality: 0.8))
        #expect(throws: CGImageCodecError.self) { try CGImage.decode(jpeg.prefix(jpeg.count - 40)) }
        #expect(UIImage(data: Data([0xFF, 0xD8, 0xFF, 0x00])) == nil)
        // A renderer of an impossible size returns an empty image and says why.
        let empty = UIGraphicsImageRenderer(size: CGSize(width: CGFloat.nan, height: 10)).image { _ in Issue.record("ran") }
        #expect(empty.cgImage == nil)
        #expect(UIApplication.shared.diagnostics.entries.contains { $0.kind == .invalidDrawing })
    }

    @Test func imageContextsAndPushedContextsNest() {
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 1)
        UIColor.blue.setFill()
        UIGraphicsGetCurrentContext()!.fill(CGRect(x: 0, y: 0, width: 2, height: 4))
        let other = CGContext(data: nil, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                              bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        UIGraphicsPushContext(other)
        #expect(UIGraphicsGetCurrentContext() === other)
        #expect(UIGraphicsGetImageFromCurrentImageContext() == nil)      // not an image context
        UIGraphicsPopContext()
        let image = UIGraphicsGetImageFromCurrentImageContext()!
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        #expect(rgba(image.cgImage!, 1, 0) == [0, 0, 255, 255] && rgba(image.cgImage!, 2, 0) == [0, 0, 0, 0])
        // An image drawn with draw(in:) comes out the right way up.
        let flipped = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4), format: {
            let f = UIGraphicsImageRendererFormat(); f.scale = 1; return f
        }()).image { _ in image.draw(in: CGRect(x: 0, y: 0, width: 4, height: 4)) }
        #expect(rgba(flipped.cgImage!, 0, 0) == [0, 0, 255, 255] && rgba(flipped.cgImage!, 3, 3) == [0, 0, 0, 0])
    }

    @Test func referencePicture() {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let image = UIGraphicsImageRenderer(size: CGSize(width: 120, height: 80), format: format).image { context in
            UIColor.white.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 120, height: 80))
            UIColor(red: 0.2, green: 0.6, blue: 0.86, alpha: 1).setFill()
            UIBezierPath(roundedRect: CGRect(x: 10, y: 10, width: 60, height: 40), cornerRadius: 10).fill()
            let star = UIBezierPath()
            for i in 0..<5 {
                let angle = CGFloat(i) * 4 * .pi / 5 - .pi / 2
                let p = CGPoint(x: 90 + 22 * cos(angle), y: 40 + 22 * sin(angle))
                if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
            }
            star.close()
            star.usesEvenOddFillRule = true
            UIColor(red: 0.9, green: 0.3, blue: 0.24, alpha: 0.8).setFill()
            star.fill()
            let dashed = UIBezierPath(arcCenter: CGPoint(x: 40, y: 30), radius: 30, startAngle: 0, endAngle: .pi, clockwise: true)
            dashed.lineWidth = 3
            dashed.lineCapStyle = .round
            let pattern: [CGFloat] = [6, 6]
            dashed.setLineDash(pattern, count: 2, phase: 0)
            UIColor.black.setStroke()
            dashed.stroke()
        }
        expectMatchesReference(image.cgImage!, named: "uikit-drawing", tolerance: 2)
    }
}
