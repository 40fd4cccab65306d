/// An update of a table or collection view being shown: the model changed
/// at once, what is shown follows over `TableViewMetrics.updateAnimationDuration`
/// (`TableUpdateAnimation.swift`, `CollectionUpdateAnimation.swift`), and
/// the completions of the update (`performBatchUpdates`' and a diffable
/// apply's) run when it ends, with whether it ran to its end.
@MainActor
final class ListUpdateAnimation {
    /// The completions to run when the animation ends.
    private var completions: [(Bool) -> Void] = []
    private(set) var isRunning = true

    /// Runs `completion` when the animation ends.
    func whenFinished(_ completion: @escaping (Bool) -> Void) {
        completions.append(completion)
    }

    /// The animation ended: runs the completions, in the order they came.
    func finish(_ finished: Bool) {
        isRunning = false
        let pending = completions
        completions = []
        for completion in pending { completion(finished) }
    }
}

extension ListUpdating {
    /// Runs `completion` when the last update has been shown: at the end of
    /// its animation, or now if none is running.
    func whenUpdateShown(_ completion: @escaping (Bool) -> Void) {
        if let lastUpdateAnimation, lastUpdateAnimation.isRunning {
            lastUpdateAnimation.whenFinished(completion)
        } else {
            completion(true)
        }
    }

    /// Whether an update is shown over time: asked for (not a snapshot
    /// applied with `animatingDifferences: false`), in a window, and not
    /// inside `UIView.performWithoutAnimation`.
    func showsOverTime(_ update: ListUpdate, in view: UIView) -> Bool {
        update.isAnimated && view.window != nil && !ViewAnimations.current.showsChangesAtOnce
    }
}
