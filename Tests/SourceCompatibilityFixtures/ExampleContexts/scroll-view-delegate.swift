// The context of an example that sets up a scroll view: the example is the
// body of a method of its delegate, which has a window.
// compile: -parse-as-library
import UIKit

@MainActor final class ListController: NSObject, UIScrollViewDelegate {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))

    func example() {
// EXAMPLE
    }
}
