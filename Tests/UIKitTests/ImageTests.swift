import DrawingTestSupport
import Foundation
import GeometryTestSupport
import TestExpectations
import Testing
@testable import UIKit

// UIImage: the empty image, images by name (Bundle.module's loose files
// and image set, and a temporary bundle), symbols and their outlines'
// reader, rendering modes, tints and nine-part resizing.

/// `image`'s pixel at column `x`, row `y`.
private func pixelOf(_ image: UIImage, _ x: Int, _ y: Int) -> [UInt8] {
    rgba(image.cgImage!, x, y)
}

/// A picture `size` points at scale 1 on white, drawn by `draw`.
@MainActor
private func drawing(_ size: CGSize, _ draw: () -> Void) -> CGImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    return UIGraphicsImageRenderer(size: size, format: format).image { context in
        UIColor.white.setFill()
        context.fill(CGRect(origin: .zero, size: size))
        draw()
    }.cgImage!
}

/// An image `colors.count` pixels wide and `rows` high, each column one
/// colour, at scale 1.
@MainActor
private func stripes(_ colors: [UIColor], rows: Int = 1) -> UIImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    return UIGraphicsImageRenderer(size: CGSize(width: colors.count, height: rows), format: format).image { context in
        for (x, color) in colors.enumerated() {
            color.setFill()
            context.fill(CGRect(x: x, y: 0, width: 1, height: rows))
        }
    }
}

@MainActor
@Suite struct NamedImageTests {
    @Test func anEmptyImageHasNoSizeAndNoPixels() {
        let image = UIImage()
        #expect(image.size == .zero && image.cgImage == nil && image.renderingMode == .automatic && !image.isSymbolImage)
        expectEqual(UIImageView(image: image).frame.size, .zero)
    }

    @Test func looseFilesAreChosenByScale() throws {
        let two = try #require(UIImage(named: "marker", in: .module, compatibleWith: UITraitCollection(displayScale: 2)))
        #expect(two.scale == 2 && two.size == CGSize(width: 2, height: 2) && pixelOf(two, 0, 0) == [0, 255, 0, 255])
        let one = try #require(UIImage(named: "marker", in: .module, compatibleWith: UITraitCollection(displayScale: 1)))
        #expect(one.scale == 1 && one.size == CGSize(width: 2, height: 2) && pixelOf(one, 0, 0) == [255, 0, 0, 255])
        let three = try #require(UIImage(named: "marker", in: .module, compatibleWith: UITraitCollection(displayScale: 3)))
        expectEqual(three.scale, 2, "no @3x: the largest smaller one")
        let larger = try #require(UIImage(named: "only2x", in: .module, compatibleWith: UITraitCollection(displayScale: 1)))
        #expect(larger.scale == 2 && larger.size == CGSize(width: 3, height: 3), "no 1x: the next larger one")
        let withExtension = UIImage(named: "marker.png", in: .module, compatibleWith: UITraitCollection(displayScale: 1))
        expectEqual(withExtension, one)
        let screen = UIImage(named: "marker", in: .module, compatibleWith: UITraitCollection(displayScale: UIScreen.main.scale))
        expectEqual(UIImage(named: "marker", in: .module, compatibleWith: nil), screen, "unspecified: the screen's scale")
    }

    @Test func anImageSetGivesTheEntryForTheScaleAndItsRenderingIntent() throws {
        let three = try #require(UIImage(named: "Badge", in: .module, compatibleWith: UITraitCollection(displayScale: 3)))
        #expect(three.scale == 3 && three.size == CGSize(width: 5, height: 3) && pixelOf(three, 0, 0) == [0, 255, 255, 255])
        expectEqual(three.renderingMode, .alwaysTemplate)
        let two = try #require(UIImage(named: "Badge", in: .module, compatibleWith: UITraitCollection(displayScale: 2)))
        expectEqual(two.scale, 3, "the 2x entry has no file: the next larger")
        let one = try #require(UIImage(named: "Badge", in: .module, compatibleWith: UITraitCollection(displayScale: 1)))
        #expect(one.scale == 1 && pixelOf(one, 0, 0) == [255, 0, 255, 255])
    }

    @Test func aJPEGFileAndBrokenImageSets() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Broken.imageset"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Missing.imageset"), withIntermediateDirectories: true)
        try #require(stripes([.red, .red]).jpegData(compressionQuality: 1)).write(to: root.appendingPathComponent("photo.jpg"))
        try Data("not an image".utf8).write(to: root.appendingPathComponent("Broken.imageset/a.png"))
        try Data(#"{"images":[{"idiom":"universal","filename":"a.png","scale":"1x"}]}"#.utf8)
            .write(to: root.appendingPathComponent("Broken.imageset/Contents.json"))
        try Data(#"{"images":[{"idiom":"universal","filename":"gone.png"}]}"#.utf8)
            .write(to: root.appendingPathComponent("Missing.imageset/Contents.json"))
        let bundle = try #require(Bundle(path: root.path))
        let photo = try #require(UIImage(named: "photo", in: bundle, compatibleWith: nil))
        #expect(photo.size == CGSize(width: 2, height: 1) && photo.renderingMode == .automatic)
        #expect(UIImage(named: "Broken", in: bundle, compatibleWith: nil) == nil)
        #expect(UIImage(named: "Missing", in: bundle, compatibleWith: nil) == nil)
        #expect(throws: AssetCatalogError(file: root.appendingPathComponent("Broken.imageset/Contents.json").standardizedFileURL.path,
                                          problem: "a.png is not a PNG or JPEG image")) {
            try UIImage.imageSet(at: root.appendingPathComponent("Broken.imageset").standardizedFileURL, scale: 1, dark: false)
        }
        #expect(UIImage(named: "../photo", in: bundle, compatibleWith: nil) == nil)
        #expect(UIImage(named: "nothing") == nil)
    }
}

@MainActor
@Suite struct SymbolImageTests {
    @Test func aSymbolIsATemplateOfTheDefaultSize() throws {
        let star = try #require(UIImage(systemName: "star.fill"))
        #expect(star.isSymbolImage && star.renderingMode == .alwaysTemplate)
        let side = SymbolCatalog.defaultPointSize * SymbolCatalog.imageSizePerPointSize
        #expect(approximately(star.size.width, side) && approximately(star.size.height, side))
        let big = try #require(UIImage(systemName: "star.fill", withConfiguration: UIImage.SymbolConfiguration(pointSize: 34)))
        #expect(approximately(big.size.width, 2 * side))
        #expect(UIImage(systemName: "no.such.symbol") == nil)
        #expect(UIImage(systemName: "star.fill", withConfiguration: UIImage.SymbolConfiguration(pointSize: .nan))?.size == star.size)
    }

    @Test func everyListedSymbolReadsAndDrawsSomething() throws {
        #expect(SymbolCatalog.names.count >= 60)
        for name in SymbolCatalog.names {
            let image = try #require(UIImage(systemName: name), "\(name)")
            let pixels = image.cgImage!
            var opaque = 0
            for y in 0..<pixels.height { for x in 0..<pixels.width where rgba(pixels, x, y)[3] > 128 { opaque += 1 } }
            let share = Double(opaque) / Double(pixels.width * pixels.height)
            #expect(share > 0.02 && share < 0.9, "\(name): \(share) of the pixels")
        }
    }

    @Test func outlinesAreTheRightWayUp() throws {
        // Bootstrap's arrow-up: the head's wings cross y ≈ 3.3 of 16 left of
        // the shaft; at y ≈ 12.7 there is only the shaft (x 7.5 to 8.5).
        let arrow = try #require(UIImage(systemName: "arrow.up", withConfiguration: UIImage.SymbolConfiguration(pointSize: 16 / 1.2)))
        let pixels = arrow.cgImage!
        let k = CGFloat(pixels.width) / 16
        func opaqueLeftOfTheShaft(atY y: CGFloat) -> Int {
            var count = 0
            for x in 0..<Int(7 * k) where rgba(pixels, x, Int(y * k))[3] > 128 { count += 1 }
            return count
        }
        #expect(opaqueLeftOfTheShaft(atY: 3.3) > 0 && opaqueLeftOfTheShaft(atY: 12.7) == 0)
    }

    @Test func anImageViewDrawsATemplateInItsTintAndFollowsIt() {
        let window = makeWindow()
        let view = UIImageView(image: UIImage(systemName: "stop.fill"))
        window.addSubview(view)
        let middle = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
        expectEqual(pixel(snapshot(view), at: middle), overWhite(.systemBlue))
        window.tintColor = .systemRed
        expectEqual(pixel(snapshot(view), at: middle), overWhite(.systemRed))
        view.image = UIImage(systemName: "stop.fill")?.withRenderingMode(.alwaysOriginal)
        expectEqual(pixel(snapshot(view), at: middle), [0, 0, 0, 255], "its own (black) pixels")
        view.image = UIImage(systemName: "stop.fill")?.withTintColor(.systemGreen)
        expectEqual(pixel(snapshot(view), at: middle), overWhite(.systemGreen))
    }

    @Test func aSystemButtonTintsTemplatesButNotOriginals() {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 60, height: 20))
        window.addSubview(container)
        let red = stripes([.red, .red, .red], rows: 3)
        let tinted = UIButton(type: .system), original = UIButton(type: .system), custom = UIButton(type: .custom)
        tinted.setImage(red, for: .normal)
        original.setImage(red.withRenderingMode(.alwaysOriginal), for: .normal)
        custom.setImage(red.withRenderingMode(.alwaysTemplate), for: .normal)
        for (n, button) in [tinted, original, custom].enumerated() {
            button.frame = CGRect(x: 20 * n, y: 0, width: 20, height: 20)
            container.addSubview(button)
        }
        let picture = snapshot(container)
        expectEqual(pixel(picture, at: CGPoint(x: 10, y: 10)), overWhite(.systemBlue))
        expectEqual(pixel(picture, at: CGPoint(x: 30, y: 10)), [255, 0, 0, 255])
        expectEqual(pixel(picture, at: CGPoint(x: 50, y: 10)), overWhite(.systemBlue), "a custom button tints a template too")
    }

    @Test func aSymbolSheet() {
        let window = makeWindow()
        let sheet = UIView(frame: CGRect(x: 0, y: 0, width: 12 * 26 + 4, height: 8 * 26 + 4))
        window.addSubview(sheet)
        for (n, name) in SymbolCatalog.names.enumerated() {
            let view = UIImageView(image: UIImage(systemName: name))
            view.frame.origin = CGPoint(x: 4 + 26 * (n % 12), y: 4 + 26 * (n / 12))
            if n % 5 == 4 { view.tintColor = .systemOrange }
            sheet.addSubview(view)
        }
        expectMatchesReference(snapshot(sheet), named: "symbols", tolerance: 3)
    }
}

@Suite struct SVGPathDataTests {
    @Test func everyCommandAbsoluteAndRelative() throws {
        let box = try SVGPathDataReader.path("M0 0 H10 V10 H0 Z").boundingBoxOfPath
        expectEqual(box, CGRect(x: 0, y: 0, width: 10, height: 10))
        let relative = try SVGPathDataReader.path("m1 1 h10 v10 h-10 z m0 0 l5-5").boundingBoxOfPath
        #expect(approximately(relative, CGRect(x: 1, y: -4, width: 10, height: 15)))
        // Numbers run together, and implicit linetos after a moveto.
        let packed = try SVGPathDataReader.path("M.5.5 1.5.5 1.5-1.5z").boundingBoxOfPath
        #expect(approximately(packed, CGRect(x: 0.5, y: -1.5, width: 1, height: 2)))
        let curves = try SVGPathDataReader.path("M0 0 C0 10 10 10 10 0 S20 -10 20 0 Q25 10 30 0 T40 0").boundingBoxOfPath
        #expect(curves.minX == 0 && curves.maxX == 40 && curves.maxY > 7 && curves.minY < -7)
    }

    @Test func arcsFollowTheirFlags() throws {
        // From (0,8) to (16,8) on a circle of radius 8: the sweep flag picks
        // the half above (y down: smaller y) or below.
        let above = try SVGPathDataReader.path("M0 8 A8 8 0 0 1 16 8").boundingBoxOfPath
        #expect(abs(above.minY) < 0.05 && abs(above.maxY - 8) < 0.05 && abs(above.width - 16) < 0.05, "\(above)")
        let below = try SVGPathDataReader.path("M0 8a8 8 0 0 0 16 0").boundingBoxOfPath
        #expect(abs(below.maxY - 16) < 0.05 && abs(below.minY - 8) < 0.05, "\(below)")
        // Radii too small are scaled up; packed flags; a zero radius is a line.
        let scaled = try SVGPathDataReader.path("M0 0 A1 1 0 0110 0").boundingBoxOfPath
        #expect(abs(scaled.height - 5) < 0.05, "\(scaled)")
        try expectEqual(SVGPathDataReader.path("M0 0 A0 5 0 0 1 10 0").boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 0))
    }

    @Test func badDataIsAnErrorThatSaysWhere() throws {
        let cases: [(String, Int, String)] = [
            ("L1 2", 0, "path data must start with a moveto (M or m)"),
            ("M1", 2, "the data ends where a number was expected"),
            ("M1 2 X3", 5, "\"X\" is not a path command"),
            ("M0 0 A1 1 0 2 0 1 1", 12, "an arc flag must be 0 or 1"),
            ("M1e999 0", 1, "1e999 is not a finite number"),
            ("M0 0 L1 -", 8, "a number was expected"),
        ]
        for (data, offset, problem) in cases {
            #expect(throws: SVGPathDataError(offset: offset, problem: problem), "\(data)") { try SVGPathDataReader.path(data) }
        }
        #expect(try SVGPathDataReader.path("  ").isEmpty)
    }

    @Test func randomDataNeverCrashes() {
        var generator = SeededGenerator(state: 22)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.-+eE ,\u{0}x".utf8)
        for _ in 0..<5000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            let data = "M0 0" + String(decoding: bytes, as: UTF8.self)
            if let path = try? SVGPathDataReader.path(data) {
                let box = path.boundingBoxOfPath
                #expect(box.isNull || !(box.origin.x.isNaN || box.origin.y.isNaN), "\(data)")
            }
        }
    }
}

@MainActor
@Suite struct ResizableImageTests {
    @Test func capsKeepTheirSizeAndTheMiddleTilesOrStretches() {
        // Red caps one pixel wide around a green-blue middle.
        let image = stripes([.red, .green, .blue, .red])
        let insets = UIEdgeInsets(top: 0, left: 1, bottom: 0, right: 1)
        let tiled = drawing(CGSize(width: 10, height: 1)) { image.resizableImage(withCapInsets: insets).draw(in: CGRect(x: 0, y: 0, width: 10, height: 1)) }
        #expect((0..<10).map { rgba(tiled, $0, 0) } == [
            [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255], [0, 0, 255, 255],
            [0, 255, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 0, 0, 255],
        ])
        let stretched = drawing(CGSize(width: 10, height: 1)) {
            image.resizableImage(withCapInsets: insets, resizingMode: .stretch).draw(in: CGRect(x: 0, y: 0, width: 10, height: 1))
        }
        #expect(rgba(stretched, 0, 0) == [255, 0, 0, 255] && rgba(stretched, 9, 0) == [255, 0, 0, 255])
        #expect(rgba(stretched, 2, 0)[1] > 200 && rgba(stretched, 7, 0)[2] > 200, "green then blue, each half the middle")
        let plain = drawing(CGSize(width: 8, height: 1)) { image.draw(in: CGRect(x: 0, y: 0, width: 8, height: 1)) }
        #expect(rgba(plain, 1, 0)[0] > 100 && rgba(plain, 1, 0)[1] > 30, "without caps the whole image scales: red blends into green")
    }

    @Test func capsLargerThanTheRectangleShrinkAndBadInsetsCountAsZero() {
        let image = stripes([.red, .green, .blue, .black])
        let squeezed = drawing(CGSize(width: 2, height: 1)) {
            image.resizableImage(withCapInsets: UIEdgeInsets(top: 0, left: 2, bottom: 0, right: 2)).draw(in: CGRect(x: 0, y: 0, width: 2, height: 1))
        }
        #expect(rgba(squeezed, 0, 0)[2] < 50 && rgba(squeezed, 1, 0)[0] < 50, "each cap in half: \(rgba(squeezed, 0, 0)) \(rgba(squeezed, 1, 0))")
        let odd = image.resizableImage(withCapInsets: UIEdgeInsets(top: .nan, left: -3, bottom: .infinity, right: 1))
        expectEqual(odd.capInsets, UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 1))
    }

    @Test func anImageViewFillsItsBoundsInNineParts() {
        let window = makeWindow()
        // A 3 × 3 point image: a red ring around a green middle.
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let ring = UIGraphicsImageRenderer(size: CGSize(width: 3, height: 3), format: format).image { context in
            UIColor.red.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 3, height: 3))
            UIColor.green.setFill()
            context.fill(CGRect(x: 1, y: 1, width: 1, height: 1))
        }
        let view = UIImageView(image: ring.resizableImage(withCapInsets: UIEdgeInsets(top: 1, left: 1, bottom: 1, right: 1)))
        view.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
        window.addSubview(view)
        var picture = snapshot(view)
        expectEqual(pixel(picture, at: CGPoint(x: 0.5, y: 0.5)), [255, 0, 0, 255])
        expectEqual(pixel(picture, at: CGPoint(x: 15, y: 0.5)), [255, 0, 0, 255], "the top edge stays one point")
        expectEqual(pixel(picture, at: CGPoint(x: 15, y: 1.5)), [0, 255, 0, 255])
        expectEqual(pixel(picture, at: CGPoint(x: 29.5, y: 10)), [255, 0, 0, 255])
        expectEqual(pixel(picture, at: CGPoint(x: 28.5, y: 18.5)), [0, 255, 0, 255])
        view.frame.size = CGSize(width: 60, height: 20)
        picture = snapshot(view)
        expectEqual(pixel(picture, at: CGPoint(x: 45, y: 10)), [0, 255, 0, 255], "redrawn for the new size")
        expectEqual(pixel(picture, at: CGPoint(x: 59.5, y: 10)), [255, 0, 0, 255])
    }
}
