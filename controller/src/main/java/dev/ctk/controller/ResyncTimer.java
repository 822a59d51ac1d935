package dev.ctk.controller;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller's resync on its {@link TimeSource}: every period, each informer's cached objects are
 * delivered to the controller's handler as updates with old == new. Under a virtual time source the
 * resync happens when the test advances the clock past the period.
 */
final class ResyncTimer {

  private static final Logger LOG = LoggerFactory.getLogger(ResyncTimer.class);

  private final String controllerName;
  private final TimeSource time;
  private final Duration period;
  private final List<InformerSource<?>> sources;
  private TimeSource.ScheduledTask next;
  private boolean stopped;

  ResyncTimer(String controllerName, TimeSource time, Duration period,
      List<InformerSource<?>> sources) {
    this.controllerName = controllerName;
    this.time = time;
    this.period = period;
    this.sources = List.copyOf(sources);
  }

  synchronized void start() {
    if (!stopped && next == null) {
      next = time.schedule(period, this::resync);
    }
  }

  synchronized void stop() {
    stopped = true;
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private void resync() {
    synchronized (this) {
      if (stopped) {
        return;
      }
    }
    for (InformerSource<?> source : sources) {
      try {
        int delivered = source.resync();
        LOG.debug("Controller \"{}\": resync delivered {} cached {} objects", controllerName,
            delivered, source.kind());
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        LOG.warn("Controller \"{}\": the resync of the {} informer failed; it is tried again in {}",
            controllerName, source.kind(), period, e);
      }
    }
    synchronized (this) {
      if (!stopped) {
        next = time.schedule(period, this::resync);
      }
    }
  }
}
