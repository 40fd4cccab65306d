// Code that touches UIKit from contexts that are not on the main actor, as
// much code written before Swift's concurrency checks does. In Swift 5 mode
// it compiles (with warnings at most), as it does against Apple's UIKit.
import UIKit

func configure(_ view: UIView) {
    view.backgroundColor = .red
    view.isUserInteractionEnabled = false
    let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
    view.addSubview(label)
    view.layer.cornerRadiusIfAvailable()
}

final class ListDelegate: UIScrollViewDelegate {
    var lastOffset = CGPoint.zero
    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        lastOffset = scrollView.contentOffset
    }
}

func attach(to list: UIScrollView) -> ListDelegate {
    let delegate = ListDelegate()
    list.delegate = delegate
    let tap = UITapGestureRecognizer { recognizer in print(recognizer.state) }
    list.addGestureRecognizer(tap)
    return delegate
}

func later(_ view: UIView) async {
    let frame = await view.frame
    print(frame)
}

extension CALayer {
    func cornerRadiusIfAvailable() {}
}
