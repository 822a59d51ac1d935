package dev.ctk.assertions.internal;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.fake.values.ApiRequestRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells a controller's own writes from outside changes in a request journal. A request is the
 * controller's own when the server received it while one of the controller's reconciles ran: between
 * the real start and end recorded by {@link ReconcileWindows} (controllers started through {@code
 * ControllerHarness}), else between the start and end of its reconcile record (stamped by the
 * view's time source, which must then be real time). Whoever sent it: a write of the test made
 * while a reconcile ran counts as the controller's own.
 *
 * <p>An outside change is an event injected through {@code EventInjector}, or a write that
 * succeeded and changed the store and is not the controller's own.
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class OwnWrites {

  private final List<Reconcile> reconciles;
  private final List<Instant> runningSince;

  private OwnWrites(List<Reconcile> reconciles, List<Instant> runningSince) {
    this.reconciles = reconciles;
    this.runningSince = runningSince;
  }

  /**
   * Reads the controller's reconcile log (and its real windows, when tracked) now.
   *
   * @param view the controller
   * @return the attribution, as of now
   */
  public static OwnWrites of(ControllerView view) {
    Optional<ReconcileWindows> windows = ReconcileWindows.of(view);
    List<Reconcile> reconciles = new ArrayList<>();
    // the log first, then the running reconciles, then each window: a logged record whose window is not
    // there yet had not seen its end listener when the running ones were read, so it is among them
    List<ReconcileRecord> log = view.reconcileLog();
    List<Instant> running = windows.map(ReconcileWindows::runningSince).orElse(List.of());
    for (ReconcileRecord record : log) {
      if (windows.isPresent()) {
        // tracked: only real windows; a record whose end was not seen yet is still running (its own
        // times may be virtual and must not be compared with the journal's real times)
        windows.get().window(record.sequence()).ifPresent(w -> reconciles.add(new Reconcile(record, w)));
      } else {
        reconciles.add(new Reconcile(record, new ReconcileWindows.Window(record.start(), record.end())));
      }
    }
    return new OwnWrites(List.copyOf(reconciles), List.copyOf(running));
  }

  /**
   * The finished reconciles, oldest first, with their windows.
   *
   * @return an immutable list
   */
  public List<Reconcile> reconciles() {
    return reconciles;
  }

  /**
   * Whether the request arrived while one of the controller's reconciles ran.
   *
   * @param request the request
   * @return {@code true} for the controller's own requests
   */
  public boolean isOwn(ApiRequestRecord request) {
    Instant time = request.time();
    for (Reconcile reconcile : reconciles) {
      if (reconcile.window().contains(time)) {
        return true;
      }
    }
    for (Instant start : runningSince) {
      if (!time.isBefore(start)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the record changed the world from the controller's point of view: an injected event, or a
   * changing write that is not its own.
   *
   * @param request the record
   * @return {@code true} for outside changes
   */
  public boolean isOutsideChange(ApiRequestRecord request) {
    return request.injected() || (isChangingWrite(request) && !isOwn(request));
  }

  /**
   * Whether the request is a write that succeeded and changed the store.
   *
   * @param request the request
   * @return {@code true} for changing writes
   */
  public static boolean isChangingWrite(ApiRequestRecord request) {
    return request.isWrite() && request.succeeded() && request.changed();
  }

  /**
   * Whether the record changed the world, whoever made it: a changing write or an injected event.
   *
   * @param record the record
   * @return {@code true} for changes
   */
  public static boolean isChange(ApiRequestRecord record) {
    return record.injected() || isChangingWrite(record);
  }

  /**
   * One finished reconcile and the real time span it ran in.
   *
   * @param record the reconcile record
   * @param window when it ran, in real time when tracked
   */
  public record Reconcile(ReconcileRecord record, ReconcileWindows.Window window) {}
}
