package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of a candidate to acquire or renew a Lease, as client-go's leader election decides it:
 * a Lease held by another identity is taken only once it has not changed for the lease duration its
 * holder wrote into it ({@code leaseDurationSeconds}; this candidate's own when it names none),
 * measured on the candidate's own time source from when the candidate last saw it change.
 *
 * <p>Threads: {@link #tryAcquireOrRenew()} keeps what it observed between calls and must be called by
 * one attempt at a time (the owning {@link LeaderElection} runs attempts on one serial path).
 * {@link #release()} and {@link #currentHolder()} keep no state, so they may run concurrently with an
 * attempt (e.g. {@code close()} on another thread).
 */
final class LeaseCandidate {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseCandidate.class);

  private final LeaseLock lock;
  private final String identity;
  private final TimeSource time;
  private final Duration leaseDuration;
  private LeaseSpec observed;
  private long observedAt;

  LeaseCandidate(LeaseLock lock, String identity, TimeSource time, Duration leaseDuration) {
    this.lock = lock;
    this.identity = identity;
    this.time = time;
    this.leaseDuration = leaseDuration;
  }

  /**
   * Reads the Lease and, if it is free, expired or ours, writes this candidate into it.
   *
   * @return whether this candidate holds the Lease after the attempt; API errors are logged and
   *     answer {@code false}
   */
  boolean tryAcquireOrRenew() {
    try {
      return attempt();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        LOG.debug("{}: {} was written by another candidate first (409 Conflict); retrying later",
            identity, lock);
      } else {
        LOG.warn("{}: acquiring or renewing {} failed ({}); retrying later", identity, lock,
            describe(e), e);
      }
      return false;
    }
  }

  private boolean attempt() {
    Lease current = lock.get();
    long now = time.nanoTime();
    if (current == null) {
      LeaseSpec spec = new LeaseSpecBuilder()
          .withHolderIdentity(identity)
          .withLeaseDurationSeconds(leaseDurationSeconds())
          .withAcquireTime(microNow())
          .withRenewTime(microNow())
          .withLeaseTransitions(0)
          .build();
      observe(lock.create(spec), now);
      return true;
    }
    LeaseSpec old = current.getSpec() == null ? new LeaseSpec() : current.getSpec();
    if (!Objects.equals(old, observed)) {
      observed = old;
      observedAt = now;
    }
    String holder = old.getHolderIdentity();
    boolean heldByOther = holder != null && !holder.isEmpty() && !holder.equals(identity);
    if (heldByOther && now - observedAt < expiryOf(old).toNanos()) {
      return false;
    }
    LeaseSpecBuilder next = new LeaseSpecBuilder(old)
        .withHolderIdentity(identity)
        .withLeaseDurationSeconds(leaseDurationSeconds())
        .withRenewTime(microNow());
    if (!identity.equals(holder)) {
      int transitions = old.getLeaseTransitions() == null ? 0 : old.getLeaseTransitions();
      next.withAcquireTime(microNow()).withLeaseTransitions(transitions + 1);
    }
    observe(lock.update(current, next.build()), now);
    return true;
  }

  /**
   * Clears the holder of the Lease if this candidate holds it, so another candidate can take it at
   * its next attempt.
   *
   * @return whether the Lease was released
   */
  boolean release() {
    try {
      Lease current = lock.get();
      if (current == null || current.getSpec() == null
          || !identity.equals(current.getSpec().getHolderIdentity())) {
        return false;
      }
      LeaseSpec released = new LeaseSpecBuilder(current.getSpec())
          .withHolderIdentity(null)
          .withRenewTime(microNow())
          .build();
      lock.update(current, released);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        LOG.debug("{}: {} changed while it was being released (409 Conflict); it is left to "
            + "whoever wrote it", identity, lock);
        return false;
      }
      LOG.warn("{}: releasing {} failed ({}); other candidates take it over once it expires",
          identity, lock, describe(e), e);
      return false;
    }
  }

  /** The holder the Lease names now, or null (no Lease, no holder, or the read failed). */
  String currentHolder() {
    Lease current = lock.get();
    if (current == null || current.getSpec() == null) {
      return null;
    }
    String holder = current.getSpec().getHolderIdentity();
    return holder == null || holder.isEmpty() ? null : holder;
  }

  private void observe(Lease written, long now) {
    observed = written == null ? null : written.getSpec();
    observedAt = now;
  }

  /**
   * How long a Lease held by another identity stays valid after it was last seen changing: the
   * duration its holder wrote into it (as client-go reads it), or this candidate's own when the Lease
   * names none.
   */
  private Duration expiryOf(LeaseSpec spec) {
    Integer seconds = spec.getLeaseDurationSeconds();
    return seconds != null && seconds > 0 ? Duration.ofSeconds(seconds) : leaseDuration;
  }

  private int leaseDurationSeconds() {
    return (int) leaseDuration.toSeconds();
  }

  private ZonedDateTime microNow() {
    return ZonedDateTime.ofInstant(time.now().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
  }

  private static String describe(KubernetesClientException e) {
    return e.getCode() > 0 ? "HTTP " + e.getCode() + ": " + e.getMessage() : String.valueOf(e);
  }
}
