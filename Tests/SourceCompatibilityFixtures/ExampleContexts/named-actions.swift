// The context of the named-actions example: top-level code with a photo to
// select. The example declares its responders and makes them.
import UIKit

let photo = UIGraphicsImageRenderer(size: CGSize(width: 1, height: 1)).image { _ in }
// EXAMPLE
