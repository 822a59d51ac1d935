package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The work folder of a local server: private, and removed after a JVM killed with SIGKILL. */
class WorkDirectoryTest {

  @Test
  void reaps_the_folders_of_a_dead_process_and_keeps_the_living_ones(@TempDir Path tmp) throws Exception {
    // GIVEN a folder owned by a process that has exited, one owned by this JVM, one without owner file
    String deadOwner = deadOwner();
    Path orphan = folder(tmp, "ctk-envtest-1", deadOwner);
    Files.writeString(orphan.resolve("tokens.csv"), "secret,admin,admin,system:masters");
    Path living = folder(tmp, "ctk-envtest-2", WorkDirectory.owner(ProcessHandle.current()));
    Path legacy = Files.createDirectory(tmp.resolve("ctk-envtest-3"));
    Path other = Files.createDirectory(tmp.resolve("not-ours"));
    // WHEN
    int removed = WorkDirectory.reapOrphans(tmp);
    // THEN
    assertThat(removed).isEqualTo(1);
    assertThat(orphan).doesNotExist();
    assertThat(living).isDirectory();
    assertThat(legacy).isDirectory();
    assertThat(other).isDirectory();
  }

  @Test
  void a_recycled_process_id_is_not_the_owner() {
    // GIVEN this JVM's pid with another start time
    String recycled = ProcessHandle.current().pid() + " 2001-01-01T00:00:00Z";
    // WHEN / THEN
    assertThat(WorkDirectory.ownerAlive(recycled)).isFalse();
    assertThat(WorkDirectory.ownerAlive(WorkDirectory.owner(ProcessHandle.current()))).isTrue();
    assertThat(WorkDirectory.ownerAlive("not-a-pid")).isTrue();
  }

  @Test
  void a_start_time_read_a_second_off_is_the_same_process_and_three_seconds_off_another() {
    ProcessHandle self = ProcessHandle.current();
    Instant started = self.info().startInstant().orElseThrow();
    // WHEN / THEN: another JVM derives the start time from a boot time that may have moved
    assertThat(WorkDirectory.ownerAlive(self.pid() + " " + started.plusSeconds(1))).isTrue();
    assertThat(WorkDirectory.ownerAlive(self.pid() + " " + started.minusSeconds(1))).isTrue();
    assertThat(WorkDirectory.ownerAlive(self.pid() + " " + started.plusSeconds(3))).isFalse();
  }

  @Test
  void the_lock_decides_over_the_process_id(@TempDir Path tmp) throws Exception {
    // GIVEN a folder naming a dead process whose lock another process holds (its owner in another pid namespace),
    // and one naming a live process whose lock nobody holds (its owner died and the pid was reused)
    Path held = folder(tmp, "ctk-envtest-held", deadOwner());
    Process holder = child("hold", held.resolve(WorkDirectory.LOCK_FILE));
    try {
      assertThat(holder.inputReader().readLine()).isEqualTo("locked");
      Path unheld = folder(tmp, "ctk-envtest-unheld", WorkDirectory.owner(holder.toHandle()));
      Files.createFile(unheld.resolve(WorkDirectory.LOCK_FILE));
      // WHEN
      int removed = WorkDirectory.reapOrphans(tmp);
      // THEN
      assertThat(removed).isEqualTo(1);
      assertThat(held).as("locked by a live process").isDirectory();
      assertThat(unheld).as("not locked").doesNotExist();
    } finally {
      holder.getOutputStream().close();   // the holder lets go and ends
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    // AND once the lock is released, the folder goes
    assertThat(WorkDirectory.reapOrphans(tmp)).isEqualTo(1);
    assertThat(held).doesNotExist();
  }

  @Test
  void a_folder_naming_this_pid_with_another_start_time_is_an_earlier_dead_run(@TempDir Path tmp) throws Exception {
    // GIVEN a folder of a run killed earlier whose pid this JVM got again (containers reuse low pids)
    Path earlier = folder(tmp, "ctk-envtest-earlier", ProcessHandle.current().pid() + " 2001-01-01T00:00:00Z");
    Files.createFile(earlier.resolve(WorkDirectory.LOCK_FILE));
    // WHEN / THEN
    assertThat(WorkDirectory.reapOrphans(tmp)).isEqualTo(1);
    assertThat(earlier).doesNotExist();
  }

  @Test
  void reaping_never_drops_a_lock_this_jvm_holds() throws Exception {
    // GIVEN a folder of this JVM (locked here)
    WorkDirectory work = WorkDirectory.create();
    try {
      // WHEN this JVM looks for dead runs' folders again (as a second local server's start does)
      WorkDirectory.reapOrphans(work.path().getParent());
      WorkDirectory.reapOrphans(work.path().getParent());
      // THEN another process still finds the lock held (closing any channel of the file would have dropped it)
      Process probe = child("probe", work.path().resolve(WorkDirectory.LOCK_FILE));
      assertThat(probe.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(probe.exitValue()).as("3: held, 0: the lock was free").isEqualTo(3);
      assertThat(work.path()).isDirectory();
    } finally {
      assertThat(work.delete()).isTrue();
    }
  }

  @Test
  void a_new_folder_is_private_and_names_its_owner() throws IOException {
    WorkDirectory work = WorkDirectory.create();
    try {
      assertThat(Files.readString(work.path().resolve(WorkDirectory.OWNER_FILE)))
          .isEqualTo(WorkDirectory.owner(ProcessHandle.current()));
      assertThat(work.path().resolve(WorkDirectory.LOCK_FILE)).exists();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(work.path()))).isEqualTo("rwx------");
    } finally {
      assertThat(work.delete()).isTrue();
    }
    assertThat(work.path()).doesNotExist();
  }

  /** A child JVM running {@link LockProbeMain} with {@code mode} on {@code file}. */
  private static Process child(String mode, Path file) throws IOException {
    return new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
        System.getProperty("java.class.path"), LockProbeMain.class.getName(), mode, file.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** The owner text of a process that has exited. */
  private static String deadOwner() throws Exception {
    Process dead = new ProcessBuilder("true").start();
    String owner = WorkDirectory.owner(dead.toHandle());
    assertThat(dead.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return owner;
  }

  private static Path folder(Path parent, String name, String owner) throws IOException {
    Path folder = Files.createDirectory(parent.resolve(name));
    Files.writeString(folder.resolve(WorkDirectory.OWNER_FILE), owner);
    return folder;
  }
}
