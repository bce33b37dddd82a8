import {
  AnimationClip,
  AnimationMixer,
  LoopOnce,
  LoopPingPong,
  LoopRepeat,
  type AnimationAction,
  type Object3D,
} from 'three';
import type { AnimationBlock } from '#core/wire/configurator/types.js';

/** How a block is played: `play` from the start (toggles loops), `forward`/`backward` for a choice, `end` jumps. */
export type AnimationCommand = 'play' | 'forward' | 'backward' | 'end';

/** A loaded model's clips, by its payload order (a block without `model` takes the first that has its clip). */
export interface AnimatedModel {
  id: string;
  order: number;
  root: Object3D;
  clips: AnimationClip[];
}

interface Playing {
  action: AnimationAction;
  block: AnimationBlock;
  /** Where a `once` clip rests: at its start, at its end, or on the way. */
  at: 'start' | 'end' | 'moving';
}

/** The animation blocks of one viewer (docs/scene-format.md, Animation blocks), on one AnimationMixer per model. */
export interface Animations {
  addModel(model: AnimatedModel): void;
  /** False for an unknown block or a clip no loaded model has. */
  play(animationId: string, how: AnimationCommand): boolean;
  /** The blocks whose clip a loaded model has, in block order. */
  available(): string[];
  /** True while some clip moves: the viewer then draws every frame. */
  readonly running: boolean;
  update(seconds: number): void;
  dispose(): void;
}

/**
 * @param onPlaying called when a block starts or stops moving (a toggle button's `aria-pressed`).
 */
export function createAnimations(
  blocks: AnimationBlock[],
  onPlaying: (animationId: string, playing: boolean) => void = () => undefined,
): Animations {
  const models: AnimatedModel[] = [];
  const mixers = new Map<Object3D, AnimationMixer>();
  const states = new Map<string, Playing>();

  const clipOf = (block: AnimationBlock) => {
    const candidates = models
      .filter((model) => block.model === null || model.id === block.model)
      .sort((a, b) => a.order - b.order);
    for (const model of candidates) {
      const clip = AnimationClip.findByName(model.clips, block.clip);
      if (clip) return { model, clip };
    }
    return null;
  };

  const mixerOf = (root: Object3D) => {
    let mixer = mixers.get(root);
    if (!mixer) {
      mixer = new AnimationMixer(root);
      mixer.addEventListener('finished', ({ action, direction }) => {
        const state = [...states.values()].find((each) => each.action === action);
        if (!state) return;
        state.at = direction < 0 ? 'start' : 'end';
        onPlaying(state.block.id, false);
      });
      mixers.set(root, mixer);
    }
    return mixer;
  };

  const stateOf = (animationId: string): Playing | null => {
    const known = states.get(animationId);
    if (known) return known;
    const block = blocks.find((each) => each.id === animationId);
    const found = block && clipOf(block);
    if (!block || !found) return null;
    const action = mixerOf(found.model.root).clipAction(found.clip);
    if (block.loop === 'once') {
      action.setLoop(LoopOnce, 1);
      // Holds the last frame instead of snapping back to the rest pose.
      action.clampWhenFinished = true;
    } else action.setLoop(block.loop === 'pingpong' ? LoopPingPong : LoopRepeat, Infinity);
    const state: Playing = { action, block, at: 'start' };
    states.set(animationId, state);
    return state;
  };

  const start = (state: Playing, direction: 1 | -1) => {
    state.action.reset();
    state.action.timeScale = direction * state.block.speed;
    if (direction < 0) state.action.time = state.action.getClip().duration;
    state.action.play();
    state.at = 'moving';
    onPlaying(state.block.id, true);
  };

  const playOnce = (state: Playing, how: AnimationCommand) => {
    const { action, block } = state;
    if (how === 'play') return start(state, 1);
    if (how === 'end') {
      action.reset();
      action.play();
      action.time = action.getClip().duration;
      // Applies the end pose now; the mixer finds the clip at its end and holds it there.
      mixerOf(action.getRoot()).update(0);
      state.at = 'end';
      return;
    }
    const direction = how === 'forward' ? 1 : -1;
    if (state.at === (direction > 0 ? 'end' : 'start')) return;
    if (state.at === 'start') return start(state, 1);
    action.paused = false;
    action.timeScale = direction * block.speed;
    state.at = 'moving';
    onPlaying(block.id, true);
  };

  const playLoop = (state: Playing, how: AnimationCommand) => {
    const { action } = state;
    if (how === 'backward') {
      // Stopping gives the bindings back, which restores the rest pose.
      action.stop();
      state.at = 'start';
      return onPlaying(state.block.id, false);
    }
    if (action.isRunning()) {
      if (how !== 'play') return;
      action.paused = true;
      return onPlaying(state.block.id, false);
    }
    if (action.isScheduled() && action.paused) {
      action.paused = false;
      return onPlaying(state.block.id, true);
    }
    start(state, 1);
  };

  return {
    addModel(model) {
      models.push(model);
    },
    play(animationId, how) {
      const state = stateOf(animationId);
      if (!state) return false;
      if (state.block.loop === 'once') playOnce(state, how);
      else playLoop(state, how);
      return true;
    },
    available() {
      return blocks.filter((block) => clipOf(block)).map((block) => block.id);
    },
    get running() {
      return [...states.values()].some((state) => state.action.isRunning());
    },
    update(seconds) {
      for (const mixer of mixers.values()) mixer.update(seconds);
    },
    dispose() {
      for (const mixer of mixers.values()) mixer.stopAllAction();
      mixers.clear();
      states.clear();
    },
  };
}
