// Fuzz target: the PNG and JPEG decoders (CGImage.decode, through libpng
// and libjpeg), which read image files from anywhere: UIImage(data:),
// UIImage(contentsOfFile:), scene files' image views.
//
// Checked beyond not crashing: a file either decodes to an image of a
// size that may be allocated, or throws a CGImageCodecError; a decoded
// image written as PNG reads back the same size, with the same opaque
// pixels.
import CoreGraphics
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    // A scene decodes no more than 64 Mi pixels of images in all
    // (SceneRenderer.imagePixelBudget, refused from the header's size
    // before decoding): the fuzzer runs with the memory that budget takes.
    if let claim = try? CGImage.pixelSize(ofEncoded: bytes), claim.width > 0, claim.height > (64 << 20) / claim.width {
        return 0
    }
    let image: CGImage
    do {
        image = try CGImage.decode(bytes)
    } catch is CGImageCodecError {
        return 0
    } catch {
        preconditionFailure("the decoder threw something other than a CGImageCodecError: \(error)")
    }
    precondition(CGImage.isAllocatable(width: image.width, height: image.height), "an image of a size that may not be allocated")
    // Round trips of large images take longer than they tell.
    guard image.width * image.height <= 1 << 16 else { return 0 }
    guard let png = try? image.pngData(), let again = try? CGImage.decode(png) else {
        preconditionFailure("a decoded image did not write and read back as PNG")
    }
    precondition(again.width == image.width && again.height == image.height, "the PNG round trip changed the size")
    let before = image.pixels, after = again.pixels
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = before.pixel(x: x, y: y)
            guard p.alpha == 255 else { continue }
            let q = after.pixel(x: x, y: y)
            precondition(p.red == q.red && p.green == q.green && p.blue == q.blue && q.alpha == 255, "an opaque pixel changed in the PNG round trip")
        }
    }
    return 0
}
