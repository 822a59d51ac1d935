package dev.ctk.assertions.internal;

import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.internal.ThrowableText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Makes a failure carry the reconcile errors its message names. A message names an error by its
 * one-line summary ({@code ERROR IllegalStateException: backend down}); the error itself, whole, goes
 * with the failure, so that JUnit prints its message, cause chain and stack trace once, below the
 * message: the most recent error as the failure's cause, any other with a different whole text as a
 * suppressed exception (a key that failed five times the same way carries that error once).
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class FailureCauses {

  private FailureCauses() {}

  /**
   * Attaches the errors to the failure: the first as its cause (when it has none yet), every other
   * as a suppressed exception; errors that are the same object, or have the same whole text ({@link
   * ThrowableText#full}), as one attached before are left out.
   *
   * @param failure the failure
   * @param errors the errors its message names, most recent first
   * @param <T> the failure's type
   * @return {@code failure}
   */
  public static <T extends Throwable> T attach(T failure, List<Throwable> errors) {
    Set<Throwable> attached = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<String> texts = new HashSet<>();
    for (Throwable error : errors) {
      if (error == null || error == failure || !attached.add(error)
          || !texts.add(ThrowableText.full(error))) {
        continue;
      }
      if (failure.getCause() == null && attached.size() == 1) {
        try {
          failure.initCause(error);
          continue;
        } catch (IllegalStateException | IllegalArgumentException causeFixed) {
          // the failure was made with its cause given (even a null one): carry the error suppressed
        }
      }
      failure.addSuppressed(error);
    }
    return failure;
  }

  /**
   * The errors of the records, most recent first.
   *
   * @param records reconciles, oldest first
   * @return the errors of those that failed
   */
  public static List<Throwable> errorsOf(List<ReconcileRecord> records) {
    List<Throwable> errors = new ArrayList<>();
    for (int i = records.size() - 1; i >= 0; i--) {
      ReconcileRecord record = records.get(i);
      if (record.outcome() == ReconcileOutcome.ERROR && record.error() != null) {
        errors.add(record.error());
      }
    }
    return errors;
  }

  /**
   * The errors {@link StateFormat#history} names: those of the last {@link
   * StateFormat#HISTORY_LIMIT} records, most recent first.
   *
   * @param records a key's reconciles, oldest first
   * @return the errors of those that failed
   */
  public static List<Throwable> historyErrors(List<ReconcileRecord> records) {
    return errorsOf(records.subList(Math.max(0, records.size() - StateFormat.HISTORY_LIMIT),
        records.size()));
  }

  /**
   * The errors {@link StateFormat#lastFailures} names: the last error of each key whose last
   * reconcile failed, in the order of the keys.
   *
   * @param keys the keys, as text
   * @param log the controller's reconcile log
   * @return the errors
   */
  public static List<Throwable> lastErrors(List<String> keys, List<ReconcileRecord> log) {
    List<Throwable> errors = new ArrayList<>();
    for (String key : keys) {
      ReconcileRecord last = null;
      for (ReconcileRecord record : log) {
        if (record.key().toString().equals(key)) {
          last = record;
        }
      }
      if (last != null && last.outcome() == ReconcileOutcome.ERROR && last.error() != null) {
        errors.add(last.error());
      }
    }
    return errors;
  }
}
