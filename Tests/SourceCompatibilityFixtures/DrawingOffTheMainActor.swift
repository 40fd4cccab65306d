import Dispatch
import UIKit

// Image drawing as UIKit code does it off the main thread: Apple declares
// these functions and classes without main-actor isolation and documents
// UIGraphicsImageRenderer as usable from any thread. This must compile in
// Swift 6 mode without a warning.

func thumbnail(of image: UIImage, side: CGFloat) -> UIImage {
    let format = UIGraphicsImageRendererFormat.default()
    format.opaque = true
    let renderer = UIGraphicsImageRenderer(size: CGSize(width: side, height: side), format: format)
    return renderer.image { context in
        UIColor.white.setFill()
        context.fill(CGRect(x: 0, y: 0, width: side, height: side))
        image.draw(in: CGRect(x: 0, y: 0, width: side, height: side))
        UIColor.black.setStroke()
        UIBezierPath(ovalIn: CGRect(x: 1, y: 1, width: side - 2, height: side - 2)).stroke()
        "42".draw(at: CGPoint(x: 2, y: 2), withAttributes: [.font: UIFont.systemFont(ofSize: 10)])
    }
}

func badge(side: CGFloat) -> UIImage? {
    UIGraphicsBeginImageContextWithOptions(CGSize(width: side, height: side), false, 0)
    defer { UIGraphicsEndImageContext() }
    guard let context = UIGraphicsGetCurrentContext() else { return nil }
    let colors = [UIColor.red.cgColor, UIColor.blue.cgColor] as CFArray
    guard let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: [0, 1]) else { return nil }
    context.addEllipse(in: CGRect(x: 0, y: 0, width: side, height: side))
    context.clip()
    let center = CGPoint(x: side / 2, y: side / 2)
    context.drawRadialGradient(gradient, startCenter: center, startRadius: 0, endCenter: center, endRadius: side / 2,
                               options: [.drawsAfterEndLocation])
    context.drawLinearGradient(gradient, start: .zero, end: CGPoint(x: side, y: 0), options: [])
    return UIGraphicsGetImageFromCurrentImageContext()
}

func makeThumbnailInTheBackground(of image: UIImage, then done: @escaping @Sendable (UIImage) -> Void) {
    DispatchQueue.global().async {
        done(thumbnail(of: image, side: 64))
        _ = badge(side: 16)
    }
}
