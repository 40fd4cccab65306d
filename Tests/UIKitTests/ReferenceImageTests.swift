import DrawingTestSupport
import Foundation
import Testing
@testable import UIKit

// Reference pictures of text and controls (References/*.png beside this
// file), compared pixel by pixel with a small tolerance; a mismatch leaves
// the actual picture and a diff image in `referenceFailureDirectory` and
// names them. Each picture shows one family of modes side by side, each
// label on a pale box that is its bounds, so that a look at the PNG tells
// whether the mode is right.

/// `labels` stacked top to bottom, 6 points apart, each drawn by its own
/// `drawText(in:)` over a pale grey box of its bounds, at scale 2.
@MainActor
private func labelSheet(_ labels: [UILabel]) -> CGImage {
    let gap: CGFloat = 6
    let width = (labels.map(\.bounds.width).max() ?? 0) + 2 * gap
    let height = labels.reduce(gap) { $0 + $1.bounds.height + gap }
    let format = UIGraphicsImageRendererFormat()
    format.scale = 2
    return UIGraphicsImageRenderer(size: CGSize(width: width, height: height), format: format).image { context in
        UIColor.white.setFill()
        context.fill(CGRect(x: 0, y: 0, width: width, height: height))
        var y = gap
        for label in labels {
            let box = CGRect(origin: CGPoint(x: gap, y: y), size: label.bounds.size)
            UIColor(white: 0.9, alpha: 1).setFill()
            context.fill(box)
            context.cgContext.saveGState()
            context.cgContext.translateBy(x: box.minX, y: box.minY)
            label.drawText(in: label.bounds)
            context.cgContext.restoreGState()
            y += box.height + gap
        }
    }.cgImage!
}

@MainActor
private func label(_ text: String, width: CGFloat = 240, height: CGFloat = 24, _ configure: (UILabel) -> Void = { _ in }) -> UILabel {
    let label = UILabel(frame: CGRect(x: 0, y: 0, width: width, height: height))
    label.text = text
    configure(label)
    return label
}

private let pangram = "The quick brown fox jumps over the lazy dog"

@MainActor
@Suite struct ReferenceImageTests {
    @Test func labelAlignments() {
        let sheet = labelSheet([
            label("Left aligned") { $0.textAlignment = .left },
            label("Centred") { $0.textAlignment = .center },
            label("Right aligned") { $0.textAlignment = .right },
            label("Natural (left, for this text)") { $0.textAlignment = .natural },
            label("Justified: \(pangram), and the last line stays left.", height: 88) {
                $0.textAlignment = .justified
                $0.numberOfLines = 0
            },
        ])
        expectMatchesReference(sheet, named: "label-alignment", tolerance: 3)
    }

    @Test func labelWrapping() {
        let text = "Wrapping \(pangram): supercalifragilisticexpialidocious"
        let sheet = labelSheet([
            label(text, width: 150, height: 132) {
                $0.numberOfLines = 0
                $0.lineBreakMode = .byWordWrapping
            },
            label(text, width: 150, height: 132) {
                $0.numberOfLines = 0
                $0.lineBreakMode = .byCharWrapping
            },
        ])
        expectMatchesReference(sheet, named: "label-wrapping", tolerance: 3)
    }

    @Test func labelTruncation() {
        let sheet = labelSheet([
            label("Head: \(pangram)", width: 200) { $0.lineBreakMode = .byTruncatingHead },
            label("Middle: \(pangram)", width: 200) { $0.lineBreakMode = .byTruncatingMiddle },
            label("Tail: \(pangram)", width: 200) { $0.lineBreakMode = .byTruncatingTail },
            label("Clipping: \(pangram)", width: 200) { $0.lineBreakMode = .byClipping },
            label("Two lines, then the tail is cut: \(pangram), twice over", width: 200, height: 44) {
                $0.numberOfLines = 2
                $0.lineBreakMode = .byTruncatingTail
            },
        ])
        expectMatchesReference(sheet, named: "label-truncation", tolerance: 3)
    }

    @Test func labelNumberOfLinesAndFontShrinking() {
        let sheet = labelSheet([
            label("numberOfLines 1: \(pangram)", width: 180) { $0.numberOfLines = 1 },
            label("numberOfLines 2: \(pangram)", width: 180, height: 44) { $0.numberOfLines = 2 },
            label("numberOfLines 0: \(pangram)", width: 180, height: 88) { $0.numberOfLines = 0 },
            label("Shrinks to fit: the quick brown fox jumps", width: 180) {
                $0.adjustsFontSizeToFitWidth = true
                $0.minimumScaleFactor = 0.5
            },
            label("Shrinks to 80 % then truncates: \(pangram)", width: 180) {
                $0.adjustsFontSizeToFitWidth = true
                $0.minimumScaleFactor = 0.8
            },
            label("Styled: bold, red, centred", width: 180) {
                $0.font = .boldSystemFont(ofSize: 15)
                $0.textColor = .red
                $0.textAlignment = .center
            },
        ])
        expectMatchesReference(sheet, named: "label-lines-and-shrinking", tolerance: 3)
    }

    /// Buttons, switches and sliders in their states, drawn through the
    /// view tree (`drawHierarchy`) at the screen's scale.
    @Test func controlsInTheirStates() {
        let window = makeWindow()
        let sheet = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 250))
        window.addSubview(sheet)
        func button(_ title: String, type: UIButton.ButtonType, at y: CGFloat, x: CGFloat = 10, _ configure: (UIButton) -> Void = { _ in }) {
            let button = UIButton(type: type)
            button.setTitle(title, for: .normal)
            configure(button)
            button.sizeToFit()
            button.frame.origin = CGPoint(x: x, y: y)
            sheet.addSubview(button)
        }
        button("System", type: .system, at: 10)
        button("Highlighted", type: .system, at: 10, x: 80) { $0.isHighlighted = true }
        button("Disabled", type: .system, at: 10, x: 180) { $0.isEnabled = false }
        button("Custom", type: .custom, at: 50) {
            $0.backgroundColor = .darkGray
            $0.contentEdgeInsets = UIEdgeInsets(top: 6, left: 12, bottom: 6, right: 12)
        }
        button("Red title", type: .custom, at: 50, x: 110) {
            $0.setTitleColor(.red, for: .normal)
            $0.contentEdgeInsets = UIEdgeInsets(top: 6, left: 12, bottom: 6, right: 12)
            $0.backgroundColor = UIColor(white: 0.9, alpha: 1)
        }
        button("Image", type: .system, at: 50, x: 210) {
            $0.setImage(UIGraphicsImageRenderer(size: CGSize(width: 14, height: 14)).image { _ in
                UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 14, height: 14)).fill()
            }, for: .normal)
            $0.tintColor = .systemGreen
        }
        let switches: [(UISwitch) -> Void] = [
            { _ in },
            { $0.isOn = true },
            { $0.isOn = true; $0.isEnabled = false },
            { $0.isOn = true; $0.onTintColor = .orange; $0.thumbTintColor = .yellow },
        ]
        for n in switches.indices {
            let toggle = UISwitch(frame: CGRect(x: 10 + 70 * CGFloat(n), y: 100, width: 0, height: 0))
            switches[n](toggle)
            sheet.addSubview(toggle)
        }
        let sliders: [(UISlider) -> Void] = [
            { $0.value = 0 },
            { $0.value = 0.5 },
            { $0.value = 1 },
            { $0.value = 0.3; $0.isEnabled = false },
            { $0.value = 0.7; $0.minimumTrackTintColor = .red; $0.maximumTrackTintColor = .black; $0.thumbTintColor = .lightGray },
        ]
        for n in sliders.indices {
            let slider = UISlider(frame: CGRect(x: 10 + 145 * CGFloat(n % 2), y: 145 + 32 * CGFloat(n / 2), width: 135, height: 30))
            sliders[n](slider)
            sheet.addSubview(slider)
        }
        expectMatchesReference(snapshot(sheet), named: "controls", tolerance: 3)
    }
}
