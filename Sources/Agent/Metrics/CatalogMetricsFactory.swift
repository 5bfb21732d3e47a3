import CoreMetrics
import Prometheus

/// swift-metrics' backend for the agent: swift-prometheus's registry, with
/// the help text and buckets of `MetricCatalog`.
///
/// Why not `PrometheusMetricsFactory` itself: it registers every metric with
/// an empty help text, so the exposition has no HELP lines (which
/// `promtool check metrics` reports), and a family registered once with help
/// and once without stops the process. Here every handle of a name is made
/// with the same help, read from the catalog.
struct CatalogMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: MetricCatalog.entries[label]?.help ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        let buckets = (MetricCatalog.entries[label]?.buckets ?? MetricCatalog.latencyBuckets).map { Double($0.components.seconds)
            + Double($0.components.attoseconds) / 1e18 }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions,
                                       buckets: MetricCatalog.entries[label]?.buckets ?? MetricCatalog.latencyBuckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
