import UIKit

/// Buttons, a switch, a slider and a segmented control, each with a label
/// saying what it did.
final class ControlsViewController: UIViewController {
    private let status = UILabel()
    private var taps = 0

    override init(nibName: String?, bundle: Bundle?) {
        super.init(nibName: nibName, bundle: bundle)
        tabBarItem = UITabBarItem(title: "Controls", image: UIImage(systemName: "slider.horizontal.3"), tag: 0)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let title = UILabel(frame: CGRect(x: 20, y: 60, width: 350, height: 40))
        title.text = "OpenUIKit"
        title.font = .boldSystemFont(ofSize: 32)
        view.addSubview(title)

        let button = UIButton(type: .system)
        button.frame = CGRect(x: 20, y: 130, width: 160, height: 44)
        button.setTitle("Tap me", for: .normal)
        button.backgroundColor = .systemBlue
        button.setTitleColor(.white, for: .normal)
        button.layer.cornerRadius = 10
        button.addAction(UIAction { [unowned self] _ in
            taps += 1
            show("button tapped \(taps)")
        }, for: .touchUpInside)
        view.addSubview(button)

        let toggle = UISwitch(frame: CGRect(x: 20, y: 200, width: 51, height: 31))
        toggle.addAction(UIAction { [unowned self] action in
            guard let toggle = action.sender as? UISwitch else { return }
            show("switch \(toggle.isOn ? "on" : "off")")
        }, for: .valueChanged)
        view.addSubview(toggle)

        let slider = UISlider(frame: CGRect(x: 20, y: 260, width: 350, height: 34))
        slider.value = 0.5
        slider.addAction(UIAction { [unowned self] action in
            guard let slider = action.sender as? UISlider else { return }
            show("slider \(describe(CGFloat(slider.value)))")
        }, for: .valueChanged)
        view.addSubview(slider)

        let segments = UISegmentedControl(items: ["One", "Two", "Three"])
        segments.frame = CGRect(x: 20, y: 320, width: 350, height: 32)
        segments.selectedSegmentIndex = 0
        segments.addAction(UIAction { [unowned self] action in
            guard let segments = action.sender as? UISegmentedControl else { return }
            show("segment \(segments.selectedSegmentIndex)")
        }, for: .valueChanged)
        view.addSubview(segments)

        status.frame = CGRect(x: 20, y: 380, width: 350, height: 30)
        status.textColor = .secondaryLabel
        status.text = "Touch something."
        view.addSubview(status)
    }

    private func show(_ line: String) {
        status.text = line
        say(line)
    }
}
