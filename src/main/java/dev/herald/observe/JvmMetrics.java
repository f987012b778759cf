package dev.herald.observe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * The JVM's and the process's figures under the names Prometheus' Java client gives them (jvm_memory_*, jvm_gc_*,
 * jvm_threads_*, jvm_buffer_pool_*, process_*), so that the usual dashboards and alerts read them: the heap is the
 * limit an operator meets first (the launcher fixes it at 80 MB). From the platform's management beans and, for the
 * process's resident memory and open files, Linux's /proc (absent elsewhere: those lines are left out).
 */
final class JvmMetrics {

    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path FDS = Path.of("/proc/self/fd");

    private JvmMetrics() {
    }

    static void writeTo(StringBuilder out) {
        memory(out);
        gc(out);
        threads(out);
        bufferPools(out);
        process(out);
    }

    private static void memory(StringBuilder out) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = memory.getHeapMemoryUsage();
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        for (Usage usage : Usage.values()) {
            header(out, "jvm_memory_" + usage.suffix, usage.help + " of the heap and of the rest.", "gauge");
            labelled(out, "jvm_memory_" + usage.suffix, "area", "heap", usage.of.applyAsLong(heap));
            labelled(out, "jvm_memory_" + usage.suffix, "area", "nonheap", usage.of.applyAsLong(nonHeap));
        }
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        for (Usage usage : Usage.values()) {
            header(out, "jvm_memory_pool_" + usage.suffix, usage.help + " of each memory pool.", "gauge");
            for (MemoryPoolMXBean pool : pools) {
                labelled(out, "jvm_memory_pool_" + usage.suffix, "pool", pool.getName(),
                         usage.of.applyAsLong(pool.getUsage()));
            }
        }
    }

    private static void gc(StringBuilder out) {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        header(out, "jvm_gc_collection_seconds", "Time spent in each collector's collections, and their number.",
               "summary");
        for (GarbageCollectorMXBean collector : collectors) {
            labelled(out, "jvm_gc_collection_seconds_count", "gc", collector.getName(), collector.getCollectionCount());
            out.append("jvm_gc_collection_seconds_sum{gc=\"").append(escaped(collector.getName())).append("\"} ")
                    .append(collector.getCollectionTime() / 1000.0).append('\n');
        }
    }

    private static void threads(StringBuilder out) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        figure(out, "jvm_threads_current", "Platform threads alive (virtual threads are not counted).", "gauge",
               threads.getThreadCount());
        figure(out, "jvm_threads_daemon", "Daemon platform threads alive.", "gauge", threads.getDaemonThreadCount());
        figure(out, "jvm_threads_peak", "Most platform threads alive at once since start.", "gauge",
               threads.getPeakThreadCount());
        figure(out, "jvm_threads_started_total", "Platform threads started since start.", "counter",
               threads.getTotalStartedThreadCount());
    }

    private static void bufferPools(StringBuilder out) {
        List<BufferPoolMXBean> pools = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
        header(out, "jvm_buffer_pool_used_bytes", "Memory used by each pool of buffers outside the heap.", "gauge");
        pools.forEach(pool -> labelled(out, "jvm_buffer_pool_used_bytes", "pool", pool.getName(), pool.getMemoryUsed()));
        header(out, "jvm_buffer_pool_capacity_bytes", "Capacity of each pool of buffers outside the heap.", "gauge");
        pools.forEach(pool -> labelled(out, "jvm_buffer_pool_capacity_bytes", "pool", pool.getName(),
                                       pool.getTotalCapacity()));
        header(out, "jvm_buffer_pool_used_buffers", "Buffers in each pool.", "gauge");
        pools.forEach(pool -> labelled(out, "jvm_buffer_pool_used_buffers", "pool", pool.getName(), pool.getCount()));
    }

    private static void process(StringBuilder out) {
        ProcessHandle.Info info = ProcessHandle.current().info();
        info.totalCpuDuration().ifPresent(cpu -> {
            header(out, "process_cpu_seconds_total", "CPU time of the process, user and system.", "counter");
            out.append("process_cpu_seconds_total ").append(cpu.toNanos() / 1e9).append('\n');
        });
        info.startInstant().ifPresent(start -> figure(out, "process_start_time_seconds",
                "Start of the process, seconds since the epoch.", "gauge", start.getEpochSecond()));
        long resident = residentBytes();
        if (resident >= 0) {
            figure(out, "process_resident_memory_bytes", "Resident memory of the process.", "gauge", resident);
        }
        try (Stream<Path> open = Files.list(FDS)) {
            figure(out, "process_open_fds", "Open file descriptors (sockets included).", "gauge", open.count());
        } catch (IOException | UncheckedIOException e) {
            // Not Linux, or /proc not mounted: the line is left out rather than made up.
        }
    }

    /** VmRSS of /proc/self/status, in bytes; -1 where there is none. */
    private static long residentBytes() {
        try (Stream<String> lines = Files.lines(STATUS)) {
            return lines.filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024)
                    .findFirst()
                    .orElse(-1);
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return -1;
        }
    }

    private static void figure(StringBuilder out, String metric, String help, String type, long value) {
        header(out, metric, help, type);
        out.append(metric).append(' ').append(value).append('\n');
    }

    private static void header(StringBuilder out, String metric, String help, String type) {
        out.append("# HELP ").append(metric).append(' ').append(help).append('\n')
                .append("# TYPE ").append(metric).append(' ').append(type).append('\n');
    }

    private static void labelled(StringBuilder out, String metric, String label, String value, long figure) {
        out.append(metric).append('{').append(label).append("=\"").append(escaped(value)).append("\"} ")
                .append(figure).append('\n');
    }

    /** A label value as the text format needs it: backslash, quote and newline escaped. */
    private static String escaped(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** The three figures of a memory usage; max is -1 where the JVM sets none. */
    private enum Usage {
        USED("used_bytes", "Memory in use", MemoryUsage::getUsed),
        COMMITTED("committed_bytes", "Memory the JVM holds from the system", MemoryUsage::getCommitted),
        MAX("max_bytes", "Most memory the JVM may use (-1: no limit set)", MemoryUsage::getMax);

        private final String suffix;
        private final String help;
        private final ToLongFunction<MemoryUsage> of;

        Usage(String suffix, String help, ToLongFunction<MemoryUsage> of) {
            this.suffix = suffix;
            this.help = help;
            this.of = of;
        }
    }
}
