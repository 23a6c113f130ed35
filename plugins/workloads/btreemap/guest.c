/* btreemap guest: an ordered map (treap with deterministic priorities) exercised as the original
 * BTreeMap benchmark. Input u32 n (little-endian). Keys k(i) = mix(i):
 *   insert k(i) -> v(i) for i in [0, n); delete k(i) for i in [0, n/4);
 *   insert k(i) -> v(i) for i in [n, n + n/2);
 *   max(1, n/8) range scans: from lower_bound(k(n*2 + j)), visit up to 16 entries, folding
 *   (key, value) into an FNV-style checksum.
 * Output: u32 final size, u32 checksum. Host mirror: plugin.cpp (std::map). */
#include "jolt_guest.h"

typedef struct Node {
  uint32_t key, value, prio;
  struct Node *left, *right;
} Node;

static uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

static Node* rotate_right(Node* t) {
  Node* l = t->left;
  t->left = l->right;
  l->right = t;
  return l;
}
static Node* rotate_left(Node* t) {
  Node* r = t->right;
  t->right = r->left;
  r->left = t;
  return r;
}

static uint32_t size;

static Node* insert(Node* t, uint32_t key, uint32_t value) {
  if (!t) {
    Node* n = jolt_alloc(sizeof(Node));
    n->key = key, n->value = value, n->prio = mix(key ^ 0x5bd1e995u);
    n->left = n->right = 0;
    ++size;
    return n;
  }
  if (key == t->key) {
    t->value = value;
  } else if (key < t->key) {
    t->left = insert(t->left, key, value);
    if (t->left->prio > t->prio) t = rotate_right(t);
  } else {
    t->right = insert(t->right, key, value);
    if (t->right->prio > t->prio) t = rotate_left(t);
  }
  return t;
}

static Node* erase(Node* t, uint32_t key) {
  if (!t) return 0;
  if (key < t->key) {
    t->left = erase(t->left, key);
  } else if (key > t->key) {
    t->right = erase(t->right, key);
  } else {
    if (!t->left || !t->right) {
      --size;
      return t->left ? t->left : t->right;
    }
    if (t->left->prio > t->right->prio) {
      t = rotate_right(t);
      t->right = erase(t->right, key);
    } else {
      t = rotate_left(t);
      t->left = erase(t->left, key);
    }
  }
  return t;
}

/* In-order visit of up to *budget entries with key >= lo. */
static void scan(const Node* t, uint32_t lo, uint32_t* budget, uint32_t* chk) {
  if (!t || *budget == 0) return;
  if (t->key >= lo) scan(t->left, lo, budget, chk);
  if (*budget == 0) return;
  if (t->key >= lo) {
    *chk = (*chk ^ t->key) * 0x01000193u;
    *chk = (*chk ^ t->value) * 0x01000193u;
    --*budget;
  }
  scan(t->right, lo, budget, chk);
}

int main(void) {
  uint32_t n;
  if (jolt_read_u32(0, &n) != 0) return 1;
  Node* root = 0;
  start_cycle_tracking("btreemap");
  for (uint32_t i = 0; i < n; ++i) root = insert(root, mix(i), i * 2654435761u);
  for (uint32_t i = 0; i < n / 4; ++i) root = erase(root, mix(i));
  for (uint32_t i = n; i < n + n / 2; ++i) root = insert(root, mix(i), i * 2654435761u);
  uint32_t chk = 0x811c9dc5u;
  const uint32_t scans = n / 8 ? n / 8 : 1;
  for (uint32_t j = 0; j < scans; ++j) {
    uint32_t budget = 16;
    scan(root, mix(n * 2 + j), &budget, &chk);
  }
  end_cycle_tracking("btreemap");
  const uint32_t out[2] = {size, chk};
  jolt_write_output(out, 8);
  return 0;
}
