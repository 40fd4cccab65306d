import Testing
@testable import UIKit

// What the self-sizing tests of tables and collection views share: cells
// whose content is one 17-point label pinned inside the content view by
// constraints, and the size such a label takes on its own, which the
// measured rows and items are compared with.

/// A 17-point label laid out by constraints, with `lines` lines at most (0: as many as the text needs).
@MainActor
func constrainedLabel(lines: Int) -> UILabel {
    let label = UILabel()
    label.font = .systemFont(ofSize: 17)
    label.numberOfLines = lines
    label.translatesAutoresizingMaskIntoConstraints = false
    return label
}

extension UIView {
    /// Adds `subview` and pins its edges `horizontal` points inside this
    /// view's leading and trailing edges and `vertical` points inside its
    /// top and bottom: the view's fitting size is the subview's plus those
    /// insets.
    func pinInside(_ subview: UIView, horizontal: CGFloat, vertical: CGFloat) {
        addSubview(subview)
        NSLayoutConstraint.activate([
            subview.leadingAnchor.constraint(equalTo: leadingAnchor, constant: horizontal),
            subview.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -horizontal),
            subview.topAnchor.constraint(equalTo: topAnchor, constant: vertical),
            subview.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -vertical),
        ])
    }
}

/// The size a 17-point label needs for `text`: on one line, or wrapped at `width`.
@MainActor
func labelSize(_ text: String, wrappingAt width: CGFloat? = nil) -> CGSize {
    let label = constrainedLabel(lines: 1)
    label.text = text
    guard let width else { return label.intrinsicContentSize }
    label.numberOfLines = 0
    return label.sizeThatFits(CGSize(width: width, height: .greatestFiniteMagnitude))
}

/// `size` rounded up to the screen's pixels, as fitting sizes are.
@MainActor
func pixelCeil(_ size: CGSize) -> CGSize {
    let scale = UIScreen.main.scale
    return CGSize(width: (size.width * scale).rounded(.up) / scale, height: (size.height * scale).rounded(.up) / scale)
}

/// A text long enough to wrap onto several lines at the widths the tests use.
let longNote = "A row whose note is long enough to wrap onto several lines in a table four hundred points wide, as notes do."
