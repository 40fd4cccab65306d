// Qt's QListView flung as Benchmarks/RenderBenchmarks/TableScene.swift flings
// a UITableView: 10,000 rows of "Row N", 44 points high, in a 390 x 844
// point view at 3 pixels per point, its scroll position stepped once per
// 1/120 s refresh by the same deceleration a UIScrollView uses (a fling
// released at 7,200 points per second, slowing by 0.998 per millisecond,
// coming to rest when it would move less than half a point more), and each
// refresh timed in the thread's CPU time: setting the scroll position and
// letting Qt paint the frame (QAbstractScrollArea scrolls the pixels it
// has and paints the rows that came into view into the backing store of
// the offscreen platform).
//
// Built and run by Benchmarks/qt-list.sh; nothing of Qt goes into the
// library. Prints one line per figure; the script formats them.
//
//   qt_list_benchmark [FLINGS]   (3 by default)

#include <QApplication>
#include <QEvent>
#include <QListView>
#include <QScrollBar>
#include <QStringListModel>
#include <QStyledItemDelegate>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

constexpr int rows = 10000;
constexpr int rowHeight = 44;
constexpr double frameInterval = 1.0 / 120;
// UIScrollView.DecelerationRate.normal, per millisecond, as a decay constant per second.
const double decay = -1000 * std::log(0.998);
// UIKit's fling in the table scene: six 60-point moves 1/120 s apart.
constexpr double releaseVelocity = 60 * 120;
// ScrollViewConstants.restingDistance: the coasting ends when it would move less.
constexpr double restingDistance = 0.5;

std::uint64_t threadCPUNanoseconds() {
    timespec time {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return std::uint64_t(time.tv_sec) * 1000000000u + std::uint64_t(time.tv_nsec);
}

/// Rows 44 points high across the view, as the table's.
class RowDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override {
        return QSize(QStyledItemDelegate::sizeHint(option, index).width(), rowHeight);
    }
};

/// Counts the paints of the view's viewport: frames that drew something.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject *object, QEvent *event) override {
        if (event->type() == QEvent::Paint) paints += 1;
        return QObject::eventFilter(object, event);
    }
};

double percentile(std::vector<double> values, double fraction) {
    std::sort(values.begin(), values.end());
    auto index = std::min(values.size() - 1, std::size_t(std::ceil(fraction * double(values.size())) - 1));
    return values[index];
}

}  // namespace

int main(int argc, char **argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("QT_SCALE_FACTOR")) qputenv("QT_SCALE_FACTOR", "3");
    int flings = 3;
    if (argc > 1) flings = std::max(1, std::atoi(argv[1]));
    QApplication application(argc, argv);

    QStringList titles;
    titles.reserve(rows);
    for (int row = 0; row < rows; ++row) titles << QStringLiteral("Row %1").arg(row);
    QStringListModel model(titles);
    QListView view;
    view.setModel(&model);
    view.setItemDelegate(new RowDelegate(&view));
    view.setUniformItemSizes(true);
    view.setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    view.setFrameShape(QFrame::NoFrame);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.resize(390, 844);
    view.show();
    PaintCounter counter;
    view.viewport()->installEventFilter(&counter);
    application.processEvents();

    QScrollBar *bar = view.verticalScrollBar();
    std::vector<double> frames;
    double position = 0;
    counter.paints = 0;
    for (int fling = 0; fling < flings; ++fling) {
        if (position > double(rows - 400) * rowHeight) {
            position = 0;
            bar->setValue(0);
            application.processEvents();
        }
        double velocity = releaseVelocity;
        while (true) {
            double slower = velocity * std::exp(-decay * frameInterval);
            position += (velocity - slower) / decay;
            velocity = slower;
            auto start = threadCPUNanoseconds();
            bar->setValue(int(std::lround(position)));
            application.processEvents();
            auto end = threadCPUNanoseconds();
            frames.push_back(double(end - start) / 1e6);
            if (std::abs(velocity) / decay < restingDistance) break;
        }
    }
    std::printf("frames %zu\n", frames.size());
    std::printf("painted %d\n", counter.paints);
    std::printf("median_ms %.3f\n", percentile(frames, 0.5));
    std::printf("p99_ms %.3f\n", percentile(frames, 0.99));
    std::printf("pixels %dx%d\n", int(view.viewport()->width() * view.devicePixelRatioF()),
                int(view.viewport()->height() * view.devicePixelRatioF()));
    std::printf("offset %d of %d\n", bar->value(), bar->maximum());
    return 0;
}
