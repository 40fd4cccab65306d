// UIKit's older image-context functions, on the calling thread's context
// stack: callable from any thread, as UIKit's.

/// Opens a bitmap context of `size` points at `scale` pixels a point (0
/// means the screen's), transparent unless `opaque`, flipped so that y
/// goes down, and makes it current.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let format = UIGraphicsImageRendererFormat()
    format.opaque = opaque
    if scale > 0 { format.scale = scale }
    guard let context = UIGraphicsImageRenderer.makeContext(size: size, format: format) else {
        reportInvalidDrawing("UIGraphicsBeginImageContextWithOptions: no context for size \(size) at scale \(format.scale)")
        return
    }
    GraphicsContextStack.current.push(context)
    GraphicsContextStack.current.imageContextScales[ObjectIdentifier(context)] = format.scale
}

/// `UIGraphicsBeginImageContextWithOptions(size, false, 1)`.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// The current image context's picture so far; nil when the current
/// context is not one opened by `UIGraphicsBeginImageContextWithOptions`.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    let stack = GraphicsContextStack.current
    guard let context = stack.current, let scale = stack.imageContextScales[ObjectIdentifier(context)],
          let image = context.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: scale, orientation: .up)
}

/// Closes the current image context.
public func UIGraphicsEndImageContext() {
    let stack = GraphicsContextStack.current
    guard let context = stack.current, stack.imageContextScales[ObjectIdentifier(context)] != nil else { return }
    stack.pop()
}
