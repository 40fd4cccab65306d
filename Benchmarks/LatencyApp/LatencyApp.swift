#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// The application side of the event server's latency benchmark: one view
/// over the whole screen measures, in each touch method, how long ago the
/// event was handed to the server (the benchmark stamps each frame as it
/// sends it), and checks the frame numbers the benchmark puts in
/// each touch's force for frames lost or out of order. When the finger
/// lifts it prints one line of results.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.addSubview(LatencyView(frame: window.bounds))
        window.isHidden = false
        self.window = window
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) { printLine("ready") }
}

final class LatencyView: UIView {
    private var latencies: [Double] = []
    private var expected = 0
    private var lost = 0
    private var reordered = 0
    private var cpuAtStart = 0.0

    override init(frame: CGRect) {
        super.init(frame: frame)
        latencies.reserveCapacity(1_100_000)
    }

    required init?(coder: NSCoder) { nil }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        latencies.removeAll(keepingCapacity: true)
        expected = 0
        lost = 0
        reordered = 0
        cpuAtStart = processCPUSeconds()
        record(touches)
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { record(touches) }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        record(touches)
        let cpu = processCPUSeconds() - cpuAtStart
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1e6 }
        printLine("result events=\(sorted.count) p50=\(percentile(0.5)) p99=\(percentile(0.99)) max=\((sorted.last ?? 0) * 1e6) lost=\(lost) reordered=\(reordered) cpu_us_per_event=\(cpu * 1e6 / Double(max(1, sorted.count)))")
    }

    private func record(_ touches: Set<UITouch>) {
        guard let touch = touches.first else { return }
        latencies.append(monotonicNow() - touch.timestamp)
        let index = Int(touch.force)
        if index == expected {
            expected += 1
        } else if index > expected {
            lost += index - expected
            expected = index + 1
        } else {
            reordered += 1
        }
    }
}

func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func printLine(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
