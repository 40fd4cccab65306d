import DrawingTestSupport
import Foundation
import SceneFile
import TestExpectations
import Testing
import UIKit
@testable import OpenUIKitCommands

/// Scenes drawn: views built from the file, laid out, displayed and
/// composited; pixels probed at the scene's scale.
@MainActor @Suite struct SceneRenderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-scene-tests-\(getpid())")

    func render(_ text: String) throws -> CGImage {
        try SceneRenderer.render(try Scene.read(Array(text.utf8)), imagesIn: directory)
    }

    @Test func viewsAreDrawnAtTheScenesScaleOverItsBackground() throws {
        let image = try render("""
            { "size": [40, 30], "scale": 2, "backgroundColor": "#0000FF",
              "views": [ { "frame": [10, 5, 10, 10], "backgroundColor": "red",
                           "subviews": [ { "frame": [5, 5, 10, 10], "backgroundColor": "#00FF0080" } ] } ] }
            """)
        #expect(image.width == 80 && image.height == 60)
        expectEqual(rgba(image, 0, 0), [0, 0, 255, 255])
        expectEqual(rgba(image, 20, 10), [255, 0, 0, 255])      // the red view's first pixel
        expectEqual(rgba(image, 19, 10), [0, 0, 255, 255])      // just left of it
        expectEqual(rgba(image, 39, 15), [255, 0, 0, 255])      // red's last column, above the green
        // Half-transparent green over red, and over the blue background outside red.
        #expect(close(rgba(image, 35, 25), [127, 128, 0, 255], tolerance: 1))
        #expect(close(rgba(image, 45, 35), [0, 128, 127, 255], tolerance: 1))
    }

    @Test func cornersClippingAlphaAndHiddenFollowTheFile() throws {
        let image = try render("""
            { "size": [100, 50], "scale": 1, "backgroundColor": "white", "views": [
              { "frame": [0, 0, 40, 40], "backgroundColor": "black", "cornerRadius": 20, "clipsToBounds": true,
                "subviews": [ { "frame": [20, 20, 40, 40], "backgroundColor": "red" } ] },
              { "frame": [50, 0, 20, 20], "backgroundColor": "black", "alpha": 0.5 },
              { "frame": [75, 0, 20, 20], "backgroundColor": "black", "hidden": true }
            ] }
            """)
        expectEqual(rgba(image, 0, 0), [255, 255, 255, 255])    // outside the round corner
        expectEqual(rgba(image, 20, 5), [0, 0, 0, 255])
        expectEqual(rgba(image, 25, 25), [255, 0, 0, 255])      // the child, inside the circle
        expectEqual(rgba(image, 39, 39), [255, 255, 255, 255])  // the child, clipped away by the circle
        expectEqual(rgba(image, 45, 25), [255, 255, 255, 255])  // the child, outside its parent's bounds
        #expect(close(rgba(image, 60, 10), [128, 128, 128, 255], tolerance: 1))
        expectEqual(rgba(image, 85, 10), [255, 255, 255, 255])
    }

    @Test func aTransformTurnsTheViewAboutItsCentre() throws {
        let image = try render("""
            { "size": [60, 60], "scale": 1, "backgroundColor": "white", "views": [
              { "frame": [10, 25, 40, 10], "backgroundColor": "black", "transform": { "rotation": 90 } } ] }
            """)
        expectEqual(rgba(image, 30, 12), [0, 0, 0, 255])        // now tall: above the centre
        expectEqual(rgba(image, 15, 30), [255, 255, 255, 255])  // where it was wide
    }

    @Test func aShadowPathCastsItsShapeNotTheViews() throws {
        let image = try render("""
            { "size": [60, 40], "scale": 1, "backgroundColor": "white", "views": [
              { "frame": [10, 5, 20, 20], "backgroundColor": "red",
                "shadow": { "opacity": 1, "radius": 0, "offset": [0, 0], "path": { "rect": [0, 0, 40, 30] } } } ] }
            """)
        expectEqual(rgba(image, 15, 10), [255, 0, 0, 255])      // the view
        expectEqual(rgba(image, 45, 30), [0, 0, 0, 255])        // its shadow, beyond it
        expectEqual(rgba(image, 55, 30), [255, 255, 255, 255])
    }

    @Test func aMaskViewShowsTheViewOnlyWhereItIsOpaque() throws {
        let image = try render("""
            { "size": [40, 20], "scale": 1, "backgroundColor": "white", "views": [
              { "frame": [0, 0, 40, 20], "backgroundColor": "red",
                "mask": { "frame": [10, 0, 20, 20], "backgroundColor": "black", "cornerRadius": 10 } } ] }
            """)
        expectEqual(rgba(image, 20, 10), [255, 0, 0, 255])      // inside the round mask
        expectEqual(rgba(image, 5, 10), [255, 255, 255, 255])   // outside it
        expectEqual(rgba(image, 10, 0), [255, 255, 255, 255])   // its rounded-away corner
    }

    @Test func anImageViewDrawsItsFileRelativeToTheScene() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4)).pngData { context in
            UIColor.green.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        try photo.write(to: directory.appendingPathComponent("photo.png"))
        let image = try render("""
            { "size": [20, 20], "scale": 1, "views": [
              { "type": "imageView", "frame": [0, 0, 8, 8], "image": "photo.png" } ] }
            """)
        expectEqual(rgba(image, 4, 4), [0, 255, 0, 255])
        expectEqual(rgba(image, 12, 12), [255, 255, 255, 255])
    }

    @Test func aMissingOrCorruptImageIsAnErrorAtItsField() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: directory.appendingPathComponent("cut.png"))
        for (file, message) in [
            ("absent.png", "cannot read the image file \(directory.path)/absent.png"),
            ("cut.png", "\(directory.path)/cut.png is not a PNG or JPEG image that can be read: invalid image data: the PNG does not start with its IHDR chunk"),
        ] {
            let scene = try Scene.read(Array("""
                { "views": [ { "frame": [0, 0, 1, 1] },
                  { "type": "imageView", "frame": [0, 0, 8, 8], "image": "\(file)" } ] }
                """.utf8))
            #expect(throws: SceneFileError(position: SourcePosition(line: 2, column: 58), field: "views[1].image", message: message)) {
                _ = try SceneRenderer.render(scene, imagesIn: directory)
            }
        }
    }

    @Test func anImageLargerThanTheScenesBudgetIsRefusedSayingSo() throws {
        // A small PNG whose header claims 16384 × 16384 pixels (1 GB decoded).
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var claim = UIGraphicsImageRenderer(size: CGSize(width: 1, height: 1)).pngData { _ in }
        claim.replaceSubrange(16..<24, with: [0, 0, 0x40, 0, 0, 0, 0x40, 0])
        try claim.write(to: directory.appendingPathComponent("huge.png"))
        let scene = try Scene.read(Array("""
            { "views": [ { "type": "imageView", "frame": [0, 0, 8, 8], "image": "huge.png" } ] }
            """.utf8))
        let failure = try #require(throws: SceneFileError.self) { _ = try SceneRenderer.render(scene, imagesIn: directory) }
        expectEqual(failure.message, "\(directory.path)/huge.png: 16384 × 16384 pixels is larger than the 67108864 pixels left of the scene's image budget (67108864 for all its images)")
    }

    @Test func aFileShownByManyViewsIsDecodedOnceAndTheBudgetCountsItOnce() throws {
        // 70 views of one 1024 × 1024 picture: 70 Mi pixels if each had its
        // own copy, more than the budget; one shared copy is 1 Mi.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = UIGraphicsImageRenderer(size: CGSize(width: 1024, height: 1024), format: {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            return format
        }()).pngData { context in
            UIColor.blue.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 1024, height: 1024))
        }
        try photo.write(to: directory.appendingPathComponent("tile.png"))
        let views = (0..<70).map { "{ \"type\": \"imageView\", \"frame\": [\($0 % 10 * 4), \($0 / 10 * 4), 4, 4], \"image\": \"tile.png\" }" }
        let image = try render("{ \"size\": [40, 28], \"scale\": 1, \"views\": [\(views.joined(separator: ", "))] }")
        expectEqual(rgba(image, 38, 26), [0, 0, 255, 255])
    }

    @Test func aFrameLargerThanTheCompositorsLargestIsRefusedBeforeAllocating() throws {
        let scene = try Scene.read(Array("{\n \"size\": [100000, 100000], \"scale\": 10}".utf8))
        let failure = try #require(throws: SceneFileError.self) { _ = try SceneRenderer.render(scene, imagesIn: directory) }
        expectEqual(failure.position, SourcePosition(line: 2, column: 10))
        expectEqual(failure.field, "size")
        expectEqual(failure.message, "1000000×1000000 pixels at scale 10 is more than the \(LayerCompositor.maximumPixelCount) pixels of the largest frame")
    }

    @Test func everyBuiltInPictureDraws() throws {
        for entry in BuiltInScenes.all {
            var scene = try Scene.read(Array(entry.json.utf8))
            scene.scale = 1  // the same views, a ninth of the pixels
            let image = try SceneRenderer.render(scene, imagesIn: directory)
            #expect(image.width == Int(scene.width) && image.height == Int(scene.height), "\(entry.name)")
        }
    }

    /// Every layer property the compositor draws, in one picture, against
    /// its reference in References/ (no text: glyphs are the text engine's).
    /// On a difference the actual picture and a diff image are written and
    /// named in the failure.
    @Test func theCompositorsPropertiesMatchTheReferencePicture() throws {
        let image = try render("""
            { "size": [160, 120], "scale": 2, "backgroundColor": "#F2F2F7", "views": [
              { "frame": [8, 8, 60, 40], "backgroundColor": "#E74C3C", "cornerRadius": 10,
                "borderWidth": 2, "borderColor": "black" },
              { "frame": [80, 8, 60, 40], "backgroundColor": "#3498DB", "cornerRadius": 12,
                "maskedCorners": ["topLeft", "bottomRight"], "shadow": { "opacity": 0.5, "radius": 4, "offset": [0, 3] } },
              { "frame": [8, 60, 60, 50], "backgroundColor": "#2ECC71", "alpha": 0.6, "cornerRadius": 8, "clipsToBounds": true,
                "subviews": [ { "frame": [30, 25, 60, 50], "backgroundColor": "#9B59B6" } ] },
              { "frame": [90, 65, 50, 30], "backgroundColor": "#F1C40F", "borderWidth": 1, "borderColor": "#00000080",
                "transform": { "rotation": 20 } }
            ] }
            """)
        expectMatchesReference(image, named: "compositor-properties", tolerance: 2)
    }

    /// Masks (`UIView.mask`): a round mask over a view and its subviews, a
    /// half-transparent mask with an opaque part, a mask cutting a view, its
    /// shadow and a subview sticking out, and a turned mask; against References/.
    @Test func masksMatchTheReferencePicture() throws {
        let image = try render("""
            { "size": [160, 110], "scale": 2, "backgroundColor": "#F2F2F7", "views": [
              { "frame": [8, 8, 60, 40], "backgroundColor": "#E74C3C",
                "subviews": [ { "frame": [0, 20, 60, 20], "backgroundColor": "#3498DB" },
                              { "frame": [40, 0, 30, 50], "backgroundColor": "#2ECC71" } ],
                "mask": { "frame": [10, -5, 50, 50], "backgroundColor": "black", "cornerRadius": 25 } },
              { "frame": [84, 8, 64, 40], "backgroundColor": "#9B59B6",
                "mask": { "frame": [0, 0, 64, 40], "backgroundColor": "#00000055",
                          "subviews": [ { "frame": [8, 8, 48, 24], "backgroundColor": "black", "cornerRadius": 12 } ] } },
              { "frame": [14, 62, 44, 34], "backgroundColor": "white", "cornerRadius": 8,
                "shadow": { "opacity": 0.6, "radius": 3, "offset": [4, 4] },
                "subviews": [ { "frame": [22, 17, 40, 40], "backgroundColor": "#F1C40F" } ],
                "mask": { "frame": [-6, -6, 46, 56], "backgroundColor": "black", "cornerRadius": 6 } },
              { "frame": [90, 60, 56, 44], "backgroundColor": "#1ABC9C", "borderWidth": 3, "borderColor": "#16A085",
                "mask": { "frame": [8, 6, 40, 32], "backgroundColor": "black", "cornerRadius": 4,
                          "transform": { "rotation": 30 } } }
            ] }
            """)
        expectMatchesReference(image, named: "layer-masks", tolerance: 2)
    }

    /// Shadows without a shadow path, cast by what the view draws: its
    /// subviews (no background of its own), a half-transparent background,
    /// a border alone, an image's opaque pixels; against References/.
    @Test func shadowsOfWhatViewsDrawMatchTheReferencePicture() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let star = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40)).pngData { _ in
            let path = UIBezierPath()
            for i in 0..<10 {
                let angle = CGFloat(i) * .pi / 5 - .pi / 2, radius: CGFloat = i % 2 == 0 ? 19 : 8
                let point = CGPoint(x: 20 + radius * cos(angle), y: 20 + radius * sin(angle))
                if i == 0 { path.move(to: point) } else { path.addLine(to: point) }
            }
            path.close()
            UIColor.orange.setFill()
            path.fill()
        }
        try star.write(to: directory.appendingPathComponent("star.png"))
        let image = try render("""
            { "size": [160, 110], "scale": 2, "backgroundColor": "white", "views": [
              { "frame": [10, 10, 60, 40], "shadow": { "opacity": 0.5, "radius": 3, "offset": [3, 5] },
                "subviews": [ { "frame": [0, 0, 26, 26], "backgroundColor": "#E74C3C", "cornerRadius": 13 },
                              { "frame": [30, 8, 36, 20], "backgroundColor": "#3498DB", "cornerRadius": 4 },
                              { "frame": [12, 26, 14, 22], "backgroundColor": "#2ECC71" } ] },
              { "frame": [90, 10, 56, 36], "backgroundColor": "#3498DB66", "cornerRadius": 10,
                "shadow": { "opacity": 0.8, "radius": 4, "offset": [0, 6] } },
              { "frame": [14, 62, 50, 36], "borderWidth": 4, "borderColor": "#9B59B6", "cornerRadius": 6,
                "shadow": { "opacity": 0.7, "radius": 2, "offset": [5, 5] } },
              { "type": "imageView", "frame": [96, 60, 40, 40], "image": "star.png",
                "shadow": { "opacity": 0.6, "radius": 2.5, "offset": [4, 4] } }
            ] }
            """)
        expectMatchesReference(image, named: "content-shadows", tolerance: 2)
    }
}
