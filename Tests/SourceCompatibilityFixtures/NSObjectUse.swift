// Client code that relies on UIKit's classes being NSObjects: identity
// equality and hashing, sets and dictionaries of views, layers and touches,
// isKind(of:), description, and casts to NSObject.
import UIKit

@MainActor
final class SelectionTracker {
    var selectedViews = Set<UIView>()
    var startPoints: [UITouch: CGPoint] = [:]
    var recognizers: Set<UIGestureRecognizer> = []

    func toggle(_ view: UIView) {
        if selectedViews.contains(view) { selectedViews.remove(view) } else { selectedViews.insert(view) }
    }

    func began(_ touches: Set<UITouch>, in view: UIView) {
        for touch in touches { startPoints[touch] = touch.location(in: view) }
    }

    func buttons(in container: UIView) -> [UIView] {
        container.subviews.filter { $0.isKind(of: UIButton.self) && !$0.isMember(of: UIControl.self) }
    }

    func isTopLayer(_ layer: CALayer, in view: UIView) -> Bool {
        view.layer.sublayers?.last == layer
    }

    func log(_ view: UIView) -> String {
        "tapped \(view) with \(view.gestureRecognizers?.first?.description ?? "nothing")"
    }

    func objects(_ view: UIView, _ event: UIEvent) -> [NSObject] {
        [view as NSObject, view.layer, event, UIColor.red]
    }

    func sameColour(_ a: UIColor, _ b: UIColor) -> Bool {
        a == b && a.isEqual(b) && a.hash == b.hash
    }

    func isBodyText(_ label: UILabel) -> Bool {
        label.font == UIFont.preferredFont(forTextStyle: .body) || label.font.isEqual(UIFont.systemFont(ofSize: 17))
    }

    func drawingObjects(_ image: UIImage, _ path: UIBezierPath) -> [NSObject] {
        [image, path, UIFont.systemFont(ofSize: 12)]
    }

    func sameImage(_ imageView: UIImageView, _ image: UIImage) -> Bool {
        imageView.image == image || imageView.image?.isEqual(image) == true
    }
}

final class DescribedView: UIView {
    nonisolated override var description: String { "DescribedView" }
}
